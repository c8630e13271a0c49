import { InvalidRequestError, UnexpectedResponseError } from "../../http"
import { createMockService, intentData, ok, SECRET_KEY } from "./mock-service"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("paymentIntents", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    mock = createMockService()
  })

  afterEach(async () => {
    mock.assertAllReplied()
    await mock.close()
  })

  describe("create", () => {
    const params = {
      amount: 1500,
      orderId: "order_1",
      returnUrl: "https://shop.example/return",
      description: "Two mugs",
      metadata: { session_id: "payses_1" },
      require3ds: true,
    }

    it("POSTs the validated body with the secret key and a generated Idempotency-Key", async () => {
      mock.on("POST", "/v1/payment-intents", ok(intentData({ clientSecret: "pi_123_secret_abc" }), "req_create_1"))

      const intent = await mock.client.paymentIntents.create(params)

      const [req] = mock.requests
      expect(req!.method).toBe("POST")
      expect(req!.path).toBe("/v1/payment-intents")
      expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
      expect(req!.headers["content-type"]).toBe("application/json")
      expect(req!.headers["idempotency-key"]).toMatch(UUID)
      // currency is optional for the caller and sent explicitly as TWD.
      expect(req!.body).toEqual({ ...params, currency: "TWD" })

      expect(intent.id).toBe("pi_123")
      expect(intent.clientSecret).toBe("pi_123_secret_abc")
      expect(intent.status).toBe("requiresPaymentMethod")
      expect(intent.metadata).toEqual({ session_id: "payses_1" })
      expect(intent.lastResponse).toEqual({
        requestId: "req_create_1",
        status: 200,
        attempts: 1,
        idempotencyKey: req!.headers["idempotency-key"],
        idempotencyReplayed: false,
      })
    })

    it("generates a different key per call", async () => {
      mock.on("POST", "/v1/payment-intents", ok(intentData({ clientSecret: "s1" })), ok(intentData({ clientSecret: "s2" })))
      const a = await mock.client.paymentIntents.create(params)
      const b = await mock.client.paymentIntents.create(params)
      expect(a.lastResponse.idempotencyKey).not.toBe(b.lastResponse.idempotencyKey)
    })

    it("sends the caller's key and reports a replayed answer", async () => {
      mock.on(
        "POST",
        "/v1/payment-intents",
        ok(intentData({ clientSecret: "pi_123_secret_abc" }), "req_first", { "idempotency-replayed": "true" })
      )

      const intent = await mock.client.paymentIntents.create(params, { idempotencyKey: "medusa:payses_1:attempt 1" })

      expect(mock.requests[0]!.headers["idempotency-key"]).toBe("medusa:payses_1:attempt 1")
      expect(intent.lastResponse.idempotencyKey).toBe("medusa:payses_1:attempt 1")
      expect(intent.lastResponse.idempotencyReplayed).toBe(true)
      expect(intent.lastResponse.requestId).toBe("req_first")
    })

    it("keeps lastResponse out of the resource's own data", async () => {
      mock.on("POST", "/v1/payment-intents", ok(intentData({ clientSecret: "cs" })))
      const intent = await mock.client.paymentIntents.create(params)
      expect(Object.keys(intent)).not.toContain("lastResponse")
      expect(JSON.parse(JSON.stringify(intent))).toEqual(intentData({ clientSecret: "cs" }))
      expect({ ...intent }).not.toHaveProperty("lastResponse")
      expect(Object.isFrozen(intent.lastResponse)).toBe(true)
    })

    it("rejects a create answer without clientSecret", async () => {
      mock.on("POST", "/v1/payment-intents", ok(intentData(), "req_nosecret"))
      const error = await mock.client.paymentIntents.create(params).catch((e) => e)
      expect(error).toBeInstanceOf(UnexpectedResponseError)
      expect(error.code).toBe("UNEXPECTED_RESPONSE")
      expect(error.message).toContain("clientSecret")
      expect(error.requestId).toBe("req_nosecret")
      expect(error.status).toBe(200)
    })

    it("tolerates unknown extra fields in the answer", async () => {
      mock.on("POST", "/v1/payment-intents", ok(intentData({ clientSecret: "cs", livemode: false })))
      const intent = await mock.client.paymentIntents.create(params)
      expect((intent as Record<string, unknown>).livemode).toBe(false)
    })
  })

  describe("list", () => {
    it("GETs with the query and parses the page", async () => {
      mock.on(
        "GET",
        "/v1/payment-intents",
        ok({ items: [intentData(), intentData({ id: "pi_124", status: "succeeded" })], hasMore: true }, "req_list")
      )

      const page = await mock.client.paymentIntents.list({
        status: "succeeded",
        createdGte: 1_760_000_000,
        createdLte: 1_760_086_400,
        limit: 2,
      })

      const [req] = mock.requests
      expect(req!.method).toBe("GET")
      expect(req!.pathname).toBe("/v1/payment-intents")
      expect(req!.query).toEqual({ status: "succeeded", createdGte: "1760000000", createdLte: "1760086400", limit: "2" })
      expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
      expect(req!.headers["idempotency-key"]).toBeUndefined()
      expect(req!.body).toBeUndefined()
      expect(page.items.map((i) => [i.id, i.status])).toEqual([
        ["pi_123", "requiresPaymentMethod"],
        ["pi_124", "succeeded"],
      ])
      expect(page.hasMore).toBe(true)
      expect(page.lastResponse.requestId).toBe("req_list")
      expect(page.lastResponse.idempotencyKey).toBeUndefined()
    })

    it("sends no query string when no filter is given", async () => {
      mock.on("GET", "/v1/payment-intents", ok({ items: [], hasMore: false }))
      const page = await mock.client.paymentIntents.list()
      expect(mock.requests[0]!.path).toBe("/v1/payment-intents")
      expect(page.items).toEqual([])
    })

    it("rejects a page whose item lacks a required field", async () => {
      const { amount: _dropped, ...noAmount } = intentData()
      mock.on("GET", "/v1/payment-intents", ok({ items: [noAmount], hasMore: false }, "req_bad_list"))
      const error = await mock.client.paymentIntents.list().catch((e) => e)
      expect(error).toBeInstanceOf(UnexpectedResponseError)
      expect(error.message).toContain("data.items.0.amount")
      expect(error.requestId).toBe("req_bad_list")
    })
  })

  describe("retrieve", () => {
    it("GETs one intent by id", async () => {
      mock.on(
        "GET",
        "/v1/payment-intents/pi_123",
        ok(intentData({ status: "failed", lastPaymentError: { code: "CARD_DECLINED" } }), "req_get")
      )
      const intent = await mock.client.paymentIntents.retrieve("pi_123")
      expect(mock.requests[0]!.method).toBe("GET")
      expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
      expect(intent.status).toBe("failed")
      expect(intent.lastPaymentError?.code).toBe("CARD_DECLINED")
      expect(intent.clientSecret).toBeUndefined()
      expect(intent.lastResponse).toMatchObject({ requestId: "req_get", status: 200, idempotencyReplayed: false })
    })

    it("defaults absent metadata to an empty object", async () => {
      const { metadata: _dropped, ...noMetadata } = intentData()
      mock.on("GET", "/v1/payment-intents/pi_123", ok(noMetadata))
      expect((await mock.client.paymentIntents.retrieve("pi_123")).metadata).toEqual({})
    })

    it("rejects an unknown status value", async () => {
      mock.on("GET", "/v1/payment-intents/pi_123", ok(intentData({ status: "authorized" })))
      await expect(mock.client.paymentIntents.retrieve("pi_123")).rejects.toThrow(UnexpectedResponseError)
    })

    it("rejects a body without the envelope", async () => {
      mock.on("GET", "/v1/payment-intents/pi_123", { status: 200, body: intentData(), headers: { "x-request-id": "req_raw" } })
      const error = await mock.client.paymentIntents.retrieve("pi_123").catch((e) => e)
      expect(error).toBeInstanceOf(UnexpectedResponseError)
      expect(error.requestId).toBe("req_raw")
    })

    it("rejects an id that would change the path, before sending", async () => {
      mock.recordEverything()
      for (const id of ["", "../refunds", "pi_1/cancel", "pi 1", "pi_1?x=1"]) {
        const error = await mock.client.paymentIntents.retrieve(id).catch((e) => e)
        expect(error).toBeInstanceOf(InvalidRequestError)
        expect(error).toMatchObject({ code: "CLIENT_VALIDATION", field: "id" })
      }
      expect(mock.requests).toHaveLength(0)
    })
  })

  describe("update", () => {
    it("PATCHes only the metadata", async () => {
      mock.on("PATCH", "/v1/payment-intents/pi_123", ok(intentData({ metadata: { session_id: "payses_2" } }), "req_patch"))
      const intent = await mock.client.paymentIntents.update("pi_123", { metadata: { session_id: "payses_2" } })
      const [req] = mock.requests
      expect(req!.method).toBe("PATCH")
      expect(req!.body).toEqual({ metadata: { session_id: "payses_2" } })
      expect(req!.headers["idempotency-key"]).toBeUndefined()
      expect(intent.metadata).toEqual({ session_id: "payses_2" })
      expect(intent.lastResponse.requestId).toBe("req_patch")
    })

    it("refuses to change anything but metadata", async () => {
      mock.recordEverything()
      const error = await mock.client.paymentIntents
        .update("pi_123", { metadata: {}, amount: 10 } as never)
        .catch((e) => e)
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error.code).toBe("CLIENT_VALIDATION")
      expect(error.message).toContain("amount")
      expect(mock.requests).toHaveLength(0)
    })
  })

  describe("cancel", () => {
    it("POSTs to /cancel without a body or key and returns the intent", async () => {
      mock.on("POST", "/v1/payment-intents/pi_123/cancel", ok(intentData({ status: "canceled" }), "req_cancel"))
      const intent = await mock.client.paymentIntents.cancel("pi_123")
      const [req] = mock.requests
      expect(req!.method).toBe("POST")
      expect(req!.path).toBe("/v1/payment-intents/pi_123/cancel")
      expect(req!.body).toBeUndefined()
      expect(req!.headers["idempotency-key"]).toBeUndefined()
      expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
      expect(intent.status).toBe("canceled")
      expect(intent.lastResponse.requestId).toBe("req_cancel")
    })
  })
})
