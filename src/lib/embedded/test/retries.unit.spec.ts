import { ConflictError, ConnectionError, RateLimitedError, ServerError, UnknownOutcomeError } from "../../http"
import { apiError, createMockService, endpointData, intentData, ok, refundData } from "./mock-service"

const createParams = { amount: 1500, orderId: "order_1", returnUrl: "https://shop.example/return" }
const created = () => ok(intentData({ clientSecret: "pi_123_secret" }), "req_created")

describe("retries", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    // Default policy: 2 retries, 250 ms base back-off (jittered), 5 s cap. `sleep` only records.
    mock = createMockService()
  })

  afterEach(async () => {
    mock.assertAllReplied()
    await mock.close()
  })

  describe("reads", () => {
    it("retry 5xx with growing back-off and then succeed", async () => {
      mock.on("GET", "/v1/payment-intents/pi_123", apiError(500, "INTERNAL_ERROR"), { status: 503, body: "busy" }, ok(intentData(), "req_third"))
      const intent = await mock.client.paymentIntents.retrieve("pi_123")
      expect(mock.requests).toHaveLength(3)
      expect(intent.lastResponse).toMatchObject({ attempts: 3, requestId: "req_third" })
      expect(mock.sleeps).toHaveLength(2)
      expect(mock.sleeps[0]).toBeGreaterThanOrEqual(125)
      expect(mock.sleeps[0]).toBeLessThanOrEqual(250)
      expect(mock.sleeps[1]).toBeGreaterThanOrEqual(250)
      expect(mock.sleeps[1]).toBeLessThanOrEqual(500)
    })

    it("honour Retry-After on 429", async () => {
      mock.on(
        "GET",
        "/v1/payment-intents",
        apiError(429, "AUTH_RATE_LIMITED", { headers: { "retry-after": "2" } }),
        apiError(429, "AUTH_RATE_LIMITED", { headers: { "retry-after": "1" } }),
        ok({ items: [], hasMore: false })
      )
      const page = await mock.client.paymentIntents.list()
      expect(mock.sleeps).toEqual([2000, 1000])
      expect(page.lastResponse.attempts).toBe(3)
    })

    it("give up at once when Retry-After asks for longer than the cap", async () => {
      mock.on("GET", "/v1/refunds/re_1", apiError(429, "AUTH_RATE_LIMITED", { headers: { "retry-after": "60" } }))
      const error = await mock.client.refunds.retrieve("re_1").catch((e) => e)
      expect(error).toBeInstanceOf(RateLimitedError)
      expect(error.retryAfter).toBe(60)
      expect(mock.requests).toHaveLength(1)
      expect(mock.sleeps).toEqual([])
    })

    it("retry after connection errors", async () => {
      mock.failConnection("GET", "/v1/webhooks", "ECONNRESET", 2)
      mock.on("GET", "/v1/webhooks", ok({ items: [endpointData()], hasMore: false }))
      const page = await mock.client.webhookEndpoints.list()
      expect(page.items).toHaveLength(1)
      expect(page.lastResponse.attempts).toBe(3)
      expect(mock.sleeps).toHaveLength(2)
    })

    it("end in ServerError when every attempt gets a 5xx", async () => {
      mock.on(
        "GET",
        "/v1/refunds",
        apiError(500, "INTERNAL_ERROR", { requestId: "r1" }),
        apiError(500, "INTERNAL_ERROR", { requestId: "r2" }),
        apiError(500, "INTERNAL_ERROR", { requestId: "r3" })
      )
      const error = await mock.client.refunds.list().catch((e) => e)
      expect(error).toBeInstanceOf(ServerError)
      expect(error).toMatchObject({ code: "INTERNAL_ERROR", status: 500, requestId: "r3", retryable: true })
      expect(mock.requests).toHaveLength(3)
    })

    it("end in ConnectionError when every attempt fails to connect", async () => {
      mock.failConnection("GET", "/v1/webhooks/we_1/logs", "ECONNREFUSED", 3)
      const error = await mock.client.webhookEndpoints.listLogs("we_1").catch((e) => e)
      expect(error).toBeInstanceOf(ConnectionError)
      expect(error).toMatchObject({ code: "CONNECTION_FAILED", retryable: true })
      expect(mock.sleeps).toHaveLength(2)
    })
  })

  describe("keyed creates", () => {
    it("repeat a payment-intent create with the SAME generated key after 500 and 429", async () => {
      mock.on(
        "POST",
        "/v1/payment-intents",
        apiError(500, "INTERNAL_ERROR"),
        apiError(429, "AUTH_RATE_LIMITED", { headers: { "retry-after": "1" } }),
        created()
      )
      const intent = await mock.client.paymentIntents.create(createParams)
      const keys = mock.requests.map((r) => r.headers["idempotency-key"])
      expect(keys).toHaveLength(3)
      expect(new Set(keys).size).toBe(1)
      expect(keys[0]).toBe(intent.lastResponse.idempotencyKey)
      expect(mock.requests.map((r) => r.body)).toEqual(Array(3).fill({ ...createParams, currency: "TWD" }))
      expect(intent.lastResponse.attempts).toBe(3)
      expect(mock.sleeps[1]).toBe(1000)
    })

    it("repeat a refund create with the caller's key", async () => {
      mock.on("POST", "/v1/refunds", { status: 502, body: "bad gateway" }, ok(refundData(), "req_ok", { "idempotency-replayed": "true" }))
      const refund = await mock.client.refunds.create({ paymentIntentId: "pi_123", reason: "duplicate" }, { idempotencyKey: "refund-ret_1" })
      expect(mock.requests.map((r) => r.headers["idempotency-key"])).toEqual(["refund-ret_1", "refund-ret_1"])
      expect(refund.lastResponse).toMatchObject({ idempotencyKey: "refund-ret_1", idempotencyReplayed: true, attempts: 2 })
    })

    it("end in UnknownOutcomeError when every attempt gets a 500", async () => {
      mock.on("POST", "/v1/payment-intents", apiError(500, "INTERNAL_ERROR"), apiError(500, "INTERNAL_ERROR"), apiError(500, "INTERNAL_ERROR", { requestId: "req_last" }))
      const error = await mock.client.paymentIntents.create(createParams, { idempotencyKey: "key-1" }).catch((e) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(error).toMatchObject({ code: "INTERNAL_ERROR", status: 500, requestId: "req_last", retryable: false })
      expect(mock.requests.map((r) => r.headers["idempotency-key"])).toEqual(["key-1", "key-1", "key-1"])
    })

    it("end in UnknownOutcomeError, naming the key, when every attempt loses the connection", async () => {
      mock.failConnection("POST", "/v1/refunds", "ECONNRESET", 3)
      const error = await mock.client.refunds.create({ paymentIntentId: "pi_123", reason: "duplicate" }, { idempotencyKey: "key-2" }).catch((e) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(error.code).toBe("CONNECTION_FAILED")
      expect(error.message).toContain("key-2")
      expect(mock.sleeps).toHaveLength(2)
    })

    it("do not retry a 409 in progress (the caller retries later with the same key)", async () => {
      mock.on("POST", "/v1/payment-intents", apiError(409, "IDEMPOTENCY_KEY_IN_PROGRESS"))
      const error = await mock.client.paymentIntents.create(createParams, { idempotencyKey: "key-3" }).catch((e) => e)
      expect(error).toBeInstanceOf(ConflictError)
      expect(error.retryable).toBe(true)
      expect(mock.requests).toHaveLength(1)
    })
  })

  describe("non-idempotent writes are never retried", () => {
    it.each([
      ["cancel", "POST", "/v1/payment-intents/pi_123/cancel", (m: typeof mock) => m.client.paymentIntents.cancel("pi_123")],
      ["update intent", "PATCH", "/v1/payment-intents/pi_123", (m: typeof mock) => m.client.paymentIntents.update("pi_123", { metadata: {} })],
      ["webhook create", "POST", "/v1/webhooks", (m: typeof mock) => m.client.webhookEndpoints.create({ url: "https://shop.example/h" })],
      ["webhook update", "PATCH", "/v1/webhooks/we_1", (m: typeof mock) => m.client.webhookEndpoints.update("we_1", { url: "https://shop.example/h2" })],
      ["webhook delete", "DELETE", "/v1/webhooks/we_1", (m: typeof mock) => m.client.webhookEndpoints.del("we_1")],
      ["rotate secret", "POST", "/v1/webhooks/we_1/rotate-secret", (m: typeof mock) => m.client.webhookEndpoints.rotateSecret("we_1")],
    ] as const)("%s: one 500 is an unknown outcome", async (_name, method, path, call) => {
      mock.on(method, path, apiError(500, "INTERNAL_ERROR"))
      const error = await call(mock).catch((e) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(mock.requests).toHaveLength(1)
      expect(mock.requests[0]!.headers["idempotency-key"]).toBeUndefined()
      expect(mock.sleeps).toEqual([])
    })

    it("cancel: a 429 is returned, not retried", async () => {
      mock.on("POST", "/v1/payment-intents/pi_123/cancel", apiError(429, "AUTH_RATE_LIMITED", { headers: { "retry-after": "1" } }))
      const error = await mock.client.paymentIntents.cancel("pi_123").catch((e) => e)
      expect(error).toBeInstanceOf(RateLimitedError)
      expect(error.retryAfter).toBe(1)
      expect(mock.requests).toHaveLength(1)
    })

    it("cancel: a lost connection is an unknown outcome, a refused one is not", async () => {
      mock.failConnection("POST", "/v1/payment-intents/pi_123/cancel", "ECONNRESET")
      const lost = await mock.client.paymentIntents.cancel("pi_123").catch((e) => e)
      expect(lost).toBeInstanceOf(UnknownOutcomeError)
      expect(lost.code).toBe("CONNECTION_LOST")

      mock.failConnection("POST", "/v1/webhooks", "ECONNREFUSED")
      const refused = await mock.client.webhookEndpoints.create({ url: "https://shop.example/h" }).catch((e) => e)
      expect(refused).toBeInstanceOf(ConnectionError)
      expect(mock.sleeps).toEqual([])
    })
  })
})
