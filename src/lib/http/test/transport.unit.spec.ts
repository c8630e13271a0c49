import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { inspect } from "node:util"
import { MockAgent } from "undici"
import { ConnectionError, HttpTransport, UnknownOutcomeError, type Logger, type TransportOptions } from ".."

const ORIGIN = "https://api.example.test"
const TOKEN = "tok_live_9f8e7d6c5b4a39281706"

function setup(overrides: Partial<TransportOptions> = {}) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const sleeps: number[] = []
  const lines: string[] = []
  const logger: Logger = {
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  }
  const transport = new HttpTransport({
    baseUrl: `${ORIGIN}/api/`,
    credential: TOKEN,
    dispatcher: agent,
    logger,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...overrides,
  })
  return { agent, pool: agent.get(ORIGIN), transport, sleeps, lines }
}

describe("HttpTransport", () => {
  it("sends the bearer credential, JSON body and query below the base path", async () => {
    const { pool, transport } = setup()
    let seen: { headers: Record<string, string>; body: string } | undefined
    pool
      .intercept({ path: "/api/things?page=a+b&n=2", method: "POST" })
      .reply(200, (opts) => {
        seen = { headers: opts.headers as Record<string, string>, body: String(opts.body) }
        return { ok: true }
      })

    const res = await transport.request({
      method: "POST",
      path: "/things",
      query: { page: "a b", n: 2, skipped: undefined },
      body: { amount: 100 },
      safeToRetry: false,
    })

    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true })
    expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(seen?.headers["content-type"]).toBe("application/json")
    expect(JSON.parse(seen!.body)).toEqual({ amount: 100 })
  })

  it("returns plain-text bodies as text", async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: "/api/nope", method: "GET" }).reply(404, "Not Found")
    const res = await transport.request({ method: "GET", path: "/nope", safeToRetry: true })
    expect(res).toMatchObject({ status: 404, body: "Not Found", text: "Not Found", attempts: 1 })
  })

  it("retries a safe request on 5xx with growing back-off, then returns the answer", async () => {
    const { pool, transport, sleeps } = setup({ retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 } })
    pool.intercept({ path: "/api/t", method: "GET" }).reply(503, { code: "F0001" }).times(2)
    pool.intercept({ path: "/api/t", method: "GET" }).reply(200, { ok: 1 })

    const res = await transport.request({ method: "GET", path: "/t", safeToRetry: true })

    expect(res.status).toBe(200)
    expect(res.attempts).toBe(3)
    expect(sleeps).toHaveLength(2)
    expect(sleeps[0]).toBeGreaterThanOrEqual(50)
    expect(sleeps[0]).toBeLessThanOrEqual(100)
    expect(sleeps[1]).toBeGreaterThanOrEqual(100)
    expect(sleeps[1]).toBeLessThanOrEqual(200)
  })

  it("honours Retry-After on 429", async () => {
    const { pool, transport, sleeps } = setup()
    pool.intercept({ path: "/api/t", method: "GET" }).reply(429, {}, { headers: { "retry-after": "2" } })
    pool.intercept({ path: "/api/t", method: "GET" }).reply(200, {})

    const res = await transport.request({ method: "GET", path: "/t", safeToRetry: true })

    expect(res.status).toBe(200)
    expect(sleeps).toEqual([2000])
  })

  it("gives the 429 back instead of blocking when Retry-After is beyond the wait bound", async () => {
    const { pool, transport, sleeps } = setup({ retry: { maxDelayMs: 1000 } })
    pool.intercept({ path: "/api/t", method: "GET" }).reply(429, {}, { headers: { "retry-after": "60" } })

    const res = await transport.request({ method: "GET", path: "/t", safeToRetry: true })

    expect(res.status).toBe(429)
    expect(sleeps).toEqual([])
  })

  it("never repeats an unsafe request, whatever the answer", async () => {
    const { agent, pool, transport, sleeps } = setup()
    pool.intercept({ path: "/api/checkout", method: "POST" }).reply(500, { code: "F0001" })

    const res = await transport.request({ method: "POST", path: "/checkout", body: {}, safeToRetry: false })

    expect(res.status).toBe(500)
    expect(res.attempts).toBe(1)
    expect(sleeps).toEqual([])
    agent.assertNoPendingInterceptors()
  })

  it("repeats a POST marked safe (idempotency key) with the same body and headers", async () => {
    const { pool, transport } = setup()
    const keys: string[] = []
    const bodies: string[] = []
    pool
      .intercept({ path: "/api/v1/refunds", method: "POST" })
      .reply(500, (opts) => {
        keys.push((opts.headers as Record<string, string>)["idempotency-key"])
        bodies.push(String(opts.body))
        return {}
      })
    pool
      .intercept({ path: "/api/v1/refunds", method: "POST" })
      .reply(200, (opts) => {
        keys.push((opts.headers as Record<string, string>)["idempotency-key"])
        bodies.push(String(opts.body))
        return { data: {} }
      })

    const res = await transport.request({
      method: "POST",
      path: "/v1/refunds",
      body: { amount: 5 },
      headers: { "idempotency-key": "k-1" },
      safeToRetry: true,
    })

    expect(res.status).toBe(200)
    expect(keys).toEqual(["k-1", "k-1"])
    expect(new Set(bodies).size).toBe(1)
  })

  it("reports a lost connection after a non-idempotent send as an unknown outcome, without retrying", async () => {
    const { pool, transport, sleeps } = setup()
    pool.intercept({ path: "/api/token/transactions", method: "POST" }).replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))

    const error = await transport.request({ method: "POST", path: "/token/transactions", body: {}, safeToRetry: false }).catch((e) => e)

    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(error.code).toBe("CONNECTION_LOST")
    expect(error.retryable).toBe(false)
    expect(sleeps).toEqual([])
  })

  it("retries a read after connection errors, then gives a retryable ConnectionError", async () => {
    const { pool, transport, sleeps } = setup({ retry: { maxRetries: 2 } })
    pool.intercept({ path: "/api/t", method: "GET" }).replyWithError(Object.assign(new Error("reset"), { code: "ECONNRESET" })).times(3)

    const error = await transport.request({ method: "GET", path: "/t", safeToRetry: true }).catch((e) => e)

    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.retryable).toBe(true)
    expect(sleeps).toHaveLength(2)
  })

  it("keeps the credential and per-request secrets out of log lines and error messages", async () => {
    const cardToken = "card_tok_0123456789abcdef"
    const { pool, transport, lines } = setup({ retry: { maxRetries: 0 } })
    // A caller mistake that puts secrets into the path must still not leak.
    const path = `/t/${TOKEN}/${cardToken}`
    pool.intercept({ path: `/api${path}`, method: "POST" }).replyWithError(Object.assign(new Error(TOKEN), { code: "ECONNRESET" }))

    const error = await transport.request({ method: "POST", path, body: { token: cardToken }, safeToRetry: false, secrets: [cardToken] }).catch((e) => e)

    const everything = [...lines, error.message, error.stack, JSON.stringify(error)].join("\n")
    expect(lines.length).toBeGreaterThan(0)
    expect(everything).toContain("[REDACTED]")
    expect(everything).not.toContain(TOKEN)
    expect(everything).not.toContain(cardToken)
    expect(error.cause).toBeUndefined()
  })

  it("does not expose the credential on the transport object", () => {
    const { transport } = setup()
    expect(JSON.stringify(transport)).not.toContain(TOKEN)
    expect(inspect(transport, { depth: 5 })).not.toContain(TOKEN)
  })
})

describe("HttpTransport with its own keep-alive pool", () => {
  let server: Server
  let baseUrl: string
  const sockets = new Set<unknown>()
  let hang = false

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (hang) {
        return // never answer: the client's headers time-out must fire
      }
      res.setHeader("content-type", "application/json")
      res.end(JSON.stringify({ url: req.url }))
    })
    server.on("connection", (socket) => sockets.add(socket))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it("keeps connections alive across sequential requests", async () => {
    hang = false
    sockets.clear()
    const transport = new HttpTransport({ baseUrl, credential: TOKEN })
    for (let i = 0; i < 20; i++) {
      const res = await transport.request({ method: "GET", path: `/n/${i}`, safeToRetry: true })
      expect(res.body).toEqual({ url: `/n/${i}` })
    }
    await transport.close()
    // undici may open a second socket while the first is being released; never one per request.
    expect(sockets.size).toBeLessThanOrEqual(2)
  })

  it("applies the headers time-out: a read becomes ConnectionError, a write UnknownOutcomeError", async () => {
    hang = true
    const transport = new HttpTransport({ baseUrl, credential: TOKEN, timeouts: { headersMs: 50 }, retry: { maxRetries: 0 } })
    const started = Date.now()
    const read = await transport.request({ method: "GET", path: "/slow", safeToRetry: true }).catch((e) => e)
    const write = await transport.request({ method: "POST", path: "/slow", body: {}, safeToRetry: false }).catch((e) => e)
    await transport.close()
    hang = false
    expect(read).toBeInstanceOf(ConnectionError)
    expect(read.code).toBe("TIMEOUT")
    expect(write).toBeInstanceOf(UnknownOutcomeError)
    expect(write.code).toBe("TIMEOUT")
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it("does not retry a write whose connection was refused, and says it had no effect", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const sleeps: number[] = []
    const transport = new HttpTransport({ baseUrl: `http://127.0.0.1:${port}`, credential: TOKEN, sleep: async (ms) => void sleeps.push(ms) })

    const error = await transport.request({ method: "POST", path: "/checkout", body: {}, safeToRetry: false }).catch((e) => e)
    await transport.close()

    expect(error).toBeInstanceOf(ConnectionError)
    expect(error.code).toBe("CONNECTION_FAILED")
    expect(sleeps).toEqual([])
  })
})
