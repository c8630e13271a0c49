import { MockAgent } from "undici"
import { z } from "zod"
import { InvalidRequestError, Requester, UnexpectedResponseError, type ApiProtocol } from ".."

const ORIGIN = "https://api.example.test"

/** A toy API: `{ ok: true, result }` on success, `{ reason }` on failure; no idempotency keys. */
const toyProtocol: ApiProtocol = {
  headers: { "x-toy": "1" },
  isSuccess: (res) => res.status === 200 && (res.body as { ok?: unknown } | null)?.ok === true,
  envelope: (data) => z.looseObject({ result: data }).transform(({ result }) => ({ data: result })),
  errorFromResponse: (res, call) =>
    new InvalidRequestError({ code: "TOY", status: res.status, message: call.redact(`${call.label}: ${(res.body as { reason?: string }).reason}`) }),
}

const thing = z.looseObject({ id: z.string() })

function setup() {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const requester = new Requester(toyProtocol, { baseUrl: `${ORIGIN}/v2`, credential: "toy-credential-123" }, { dispatcher: agent })
  return { agent, pool: agent.get(ORIGIN), requester }
}

describe("Requester", () => {
  it("fills and encodes path parameters, sends the protocol's headers and unwraps the envelope", async () => {
    const { agent, pool, requester } = setup()
    let headers: Record<string, string> = {}
    pool.intercept({ method: "GET", path: "/v2/things/a%2Fb%20c/parts/p1" }).reply(200, (opts) => {
      headers = opts.headers as Record<string, string>
      return { ok: true, result: { id: "t1" } }
    })
    const result = await requester.request({ method: "GET", path: "/things/{id}/parts/{part}", params: { id: "a/b c", part: "p1" }, data: thing })
    expect(result).toEqual({ id: "t1" })
    expect(result.lastResponse).toEqual({ status: 200, attempts: 1, idempotencyReplayed: false })
    expect(headers["x-toy"]).toBe("1")
    agent.assertNoPendingInterceptors()
    await agent.close()
  })

  it("hands failures to the protocol's mapper with the path template as label and the credential redacted", async () => {
    const { agent, pool, requester } = setup()
    pool.intercept({ method: "GET", path: "/v2/things/t9" }).reply(200, { ok: false, reason: "token toy-credential-123 refused" })
    const error = await requester.request({ method: "GET", path: "/things/{id}", params: { id: "t9" }, data: thing }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.message).toBe("GET /things/{id}: token [REDACTED] refused")
    await agent.close()
  })

  it("rejects a success whose payload breaks the schema, naming the path inside the envelope", async () => {
    const { agent, pool, requester } = setup()
    pool.intercept({ method: "GET", path: "/v2/things" }).reply(200, { ok: true, result: { id: 5 } })
    const error = await requester.request({ method: "GET", path: "/things", data: thing }).catch((e) => e)
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toContain("result.id")
    await agent.close()
  })

  it("refuses, before sending, a missing path parameter or an idempotency key the API has no header for", async () => {
    const { agent, requester } = setup()
    await expect(requester.request({ method: "GET", path: "/things/{id}", params: {}, data: thing })).rejects.toThrow(TypeError)
    await expect(requester.request({ method: "POST", path: "/things", idempotencyKey: "k1", data: thing })).rejects.toThrow(TypeError)
    agent.assertNoPendingInterceptors()
    await agent.close()
  })
})
