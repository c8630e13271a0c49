import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { ConnectionError, UnknownOutcomeError } from "../../http"
import { EmbeddedCardClient } from "../embedded-client"
import { intentData, SECRET_KEY } from "./mock-service"

/**
 * Time-outs need a real socket: undici's MockAgent ignores `headersTimeout`.
 * A loopback server that answers late (or never) plays the stalled service.
 * undici's parser timers tick at about 1 s, so each time-out here costs ~1 s
 * whatever `headersMs` says; one retry keeps the file short.
 */
describe("time-outs", () => {
  let server: Server
  let baseUrl: string
  let seen: IncomingMessage[]
  let open: ServerResponse[]
  let handler: (req: IncomingMessage, res: ServerResponse) => void
  let client: EmbeddedCardClient

  beforeEach(async () => {
    seen = []
    open = []
    handler = () => undefined // never answers
    server = createServer((req, res) => {
      seen.push(req)
      open.push(res)
      req.resume()
      handler(req, res)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    client = new EmbeddedCardClient({
      secretKey: SECRET_KEY,
      baseUrl,
      timeouts: { headersMs: 80, bodyMs: 80 },
      retry: { maxRetries: 1 },
      sleep: async () => undefined,
    })
  })

  afterEach(async () => {
    await client.close().catch(() => undefined)
    for (const res of open) {
      res.destroy()
    }
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it("a GET whose headers never come ends in ConnectionError TIMEOUT after its retries", async () => {
    const error = await client.paymentIntents.retrieve("pi_123").catch((e) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: true })
    expect(seen).toHaveLength(2)
  })

  it("a GET whose body stalls ends in ConnectionError TIMEOUT", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.write('{"data":')
    }
    const error = await client.refunds.retrieve("re_1").catch((e) => e)
    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.code).toBe("TIMEOUT")
    expect(seen).toHaveLength(2)
  })

  it("a keyed create ends in UnknownOutcomeError after its retries, every attempt with the same key", async () => {
    const error = await client.paymentIntents
      .create({ amount: 100, orderId: "o1", returnUrl: "https://shop.example/r" }, { idempotencyKey: "ik-timeout" })
      .catch((e) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(error.code).toBe("TIMEOUT")
    expect(error.retryable).toBe(false)
    expect(seen.map((req) => req.headers["idempotency-key"])).toEqual(["ik-timeout", "ik-timeout"])
    expect(seen.every((req) => req.headers.authorization === `Bearer ${SECRET_KEY}`)).toBe(true)
  })

  it("a cancel that times out is an unknown outcome after one attempt", async () => {
    const error = await client.paymentIntents.cancel("pi_123").catch((e) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(error.code).toBe("TIMEOUT")
    expect(seen).toHaveLength(1)
  })

  it("a slow answer inside the time-out succeeds over a real socket", async () => {
    handler = (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_slow" })
        res.end(JSON.stringify({ data: intentData(), requestId: "req_slow" }))
      }, 20)
    }
    const intent = await client.paymentIntents.retrieve("pi_123")
    expect(intent.id).toBe("pi_123")
    expect(intent.lastResponse.requestId).toBe("req_slow")
    expect(seen[0]!.url).toBe("/v1/payment-intents/pi_123")
  })
})
