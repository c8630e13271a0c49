import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  ConnectionError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnexpectedResponseError,
  UnknownOutcomeError,
} from "../../http"
import { HostedCheckoutClient } from "../hosted-client"
import { hostedErrorFromResponse } from "../hosted-errors"
import { API_TOKEN, CHECKOUT_HOST, CHECKOUT_INPUT, MERCHANT, mockApi, ok, TOKEN_INPUT, TRANSACTION, TX_ID } from "./mock-api"

describe("answers outside the envelope, retries and time-outs", () => {
  let api: ReturnType<typeof mockApi>
  beforeEach(() => {
    api = mockApi()
  })
  afterEach(async () => {
    await api.close()
  })

  it("plain-text 404 (unknown path) -> NotFoundError", async () => {
    api.reply("GET", `/transactions/${TX_ID}`, { status: 404, text: "Not Found" })
    const error = await api.client.transactions.retrieve(TX_ID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error).toMatchObject({ code: "NOT_FOUND", status: 404, retryable: false })
    expect((error as Error).message).toContain("GET /transactions/{id}")
  })

  it("plain-text 405 (unsupported method) -> UnexpectedResponseError", async () => {
    api.reply("PUT", "/subscriptions/S2026112200000007", { status: 405, text: "Method Not Allowed" })
    const error = await api.client.subscriptions.cancel("S2026112200000007").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error).toMatchObject({ code: "METHOD_NOT_ALLOWED", status: 405 })
  })

  it("GET 5xx is retried and then succeeds", async () => {
    api.reply("GET", `/transactions/${TX_ID}`, { status: 503, text: "busy" }, 2)
    api.reply("GET", `/transactions/${TX_ID}`, ok(TRANSACTION))
    const tx = await api.client.transactions.retrieve(TX_ID)
    expect(tx.status).toBe("charged")
    expect(tx.lastResponse).toMatchObject({ status: 200, attempts: 3 })
    expect(api.requests).toHaveLength(3)
    api.agent.assertNoPendingInterceptors()
  })

  it("GET 5xx after the retries ran out -> ServerError (retryable)", async () => {
    api.reply("GET", `/transactions/${TX_ID}`, { status: 502, text: "Bad Gateway" }, 3)
    const error = await api.client.transactions.retrieve(TX_ID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ code: "SERVER_ERROR", status: 502, retryable: true })
    expect(api.requests).toHaveLength(3)
  })

  it("POST 5xx is sent exactly once -> UnknownOutcomeError", async () => {
    api.reply("POST", "/checkout", { status: 503, text: "busy" }, 3)
    const error = await api.client.checkouts.create(CHECKOUT_INPUT).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(api.requests).toHaveLength(1)
    expect(api.agent.pendingInterceptors()).toHaveLength(1)
  })

  it("429 -> RateLimitedError with Retry-After", async () => {
    api.reply("POST", "/token/transactions", { status: 429, text: "slow down", headers: { "retry-after": "7" } })
    const error = await api.client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ status: 429, retryAfter: 7, retryable: true })
  })

  it.each([
    ["a 400 that is not JSON", { status: 400, text: "<html>bad request</html>" }],
    ["a 200 whose body is not JSON", { status: 200, text: "OK" }],
    ["a 200 with an unknown code", { status: 200, body: { code: "Z9999", data: {}, message: "?" } }],
    ["a 200 S0000 without data", { status: 200, body: { code: "S0000", message: "" } }],
  ])("%s -> UnexpectedResponseError", async (_what, answer) => {
    api.reply("POST", "/checkout", answer)
    await expect(api.client.checkouts.create(CHECKOUT_INPUT)).rejects.toBeInstanceOf(UnexpectedResponseError)
  })
})

describe("hostedErrorFromResponse", () => {
  const call = (method: "GET" | "POST" | "PUT") => ({ method, label: `${method} /x`, redact: (t: string) => t })
  const res = (status: number, body: unknown) => ({
    status,
    headers: {},
    body,
    text: typeof body === "string" ? body : JSON.stringify(body),
    attempts: 1,
  })

  it("maps the same 5xx to ServerError for a read and UnknownOutcomeError for a write", () => {
    const answer = res(500, { code: "F0001", data: {}, message: "system error" })
    expect(hostedErrorFromResponse(answer, call("GET"))).toBeInstanceOf(ServerError)
    expect(hostedErrorFromResponse(answer, call("POST"))).toBeInstanceOf(UnknownOutcomeError)
    expect(hostedErrorFromResponse(answer, call("PUT"))).toBeInstanceOf(UnknownOutcomeError)
  })

  it("takes the first named variant of a message listing several rules", () => {
    const error = hostedErrorFromResponse(
      res(400, { code: "V0001", data: {}, message: "amount must be integer; INVALID_CARRIER_ID; PRODUCT_AMOUNT_NOT_MATCH" }),
      call("POST")
    )
    expect(error).toMatchObject({ variant: "INVALID_CARRIER_ID" })
  })

  it("truncates a long service message", () => {
    const error = hostedErrorFromResponse(res(400, { code: "V0001", data: {}, message: "x".repeat(5000) }), call("POST"))
    expect(error.message.length).toBeLessThan(700)
  })
})

describe("time-outs (real loopback server)", () => {
  let server: Server
  let hits: string[]
  let client: HostedCheckoutClient

  beforeEach(async () => {
    hits = []
    // Never answers: every request waits past the headers time-out.
    server = createServer((req: IncomingMessage, _res: ServerResponse) => {
      hits.push(`${req.method} ${req.url}`)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    client = new HostedCheckoutClient({
      apiToken: API_TOKEN,
      merchantId: MERCHANT,
      baseUrl: `http://127.0.0.1:${port}/api`,
      checkoutHost: CHECKOUT_HOST,
      // undici's timers are coarse (about 1 s below 1 s), so keep the attempt count low.
      timeouts: { headersMs: 80 },
      retry: { maxRetries: 1, baseDelayMs: 1 },
      sleep: async () => {},
    })
  })

  afterEach(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await client.close()
  })

  it("a GET that times out is retried, then ConnectionError TIMEOUT", async () => {
    const error = await client.transactions.retrieve(TX_ID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: true })
    expect(hits).toEqual(Array(2).fill(`GET /api/transactions/${TX_ID}`))
  })

  it("a POST that times out is sent once -> UnknownOutcomeError TIMEOUT", async () => {
    const error = await client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: false })
    expect((error as Error).message).not.toContain(TOKEN_INPUT.token)
    expect(hits).toEqual(["POST /api/token/transactions"])
  })
})
