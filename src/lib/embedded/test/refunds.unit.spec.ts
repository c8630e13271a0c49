import { UnexpectedResponseError } from "../../http"
import { createMockService, ok, refundData, SECRET_KEY } from "./mock-service"

describe("refunds", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    mock = createMockService()
  })

  afterEach(async () => {
    mock.assertAllReplied()
    await mock.close()
  })

  describe("create", () => {
    it("POSTs the refund with a generated Idempotency-Key and returns it with its status", async () => {
      mock.on("POST", "/v1/refunds", ok(refundData({ status: "succeeded", amount: 500 }), "req_refund"))

      const refund = await mock.client.refunds.create({
        paymentIntentId: "pi_123",
        reason: "requested_by_customer",
        amount: 500,
        metadata: { return_id: "ret_1" },
      })

      const [req] = mock.requests
      expect(req!.method).toBe("POST")
      expect(req!.path).toBe("/v1/refunds")
      expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
      expect(req!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/)
      expect(req!.body).toEqual({
        paymentIntentId: "pi_123",
        reason: "requested_by_customer",
        amount: 500,
        metadata: { return_id: "ret_1" },
      })
      expect(refund).toEqual(refundData({ status: "succeeded", amount: 500 }))
      expect(refund.lastResponse).toEqual({
        requestId: "req_refund",
        status: 200,
        attempts: 1,
        idempotencyKey: req!.headers["idempotency-key"],
        idempotencyReplayed: false,
      })
    })

    it("omits the amount for a full refund and sends the caller's key", async () => {
      mock.on("POST", "/v1/refunds", ok(refundData({ amount: 1500 }), "req_r2", { "idempotency-replayed": "true" }))
      const refund = await mock.client.refunds.create(
        { paymentIntentId: "pi_123", reason: "duplicate" },
        { idempotencyKey: "refund:ret_1" }
      )
      expect(mock.requests[0]!.body).toEqual({ paymentIntentId: "pi_123", reason: "duplicate" })
      expect(mock.requests[0]!.headers["idempotency-key"]).toBe("refund:ret_1")
      expect(refund.lastResponse.idempotencyReplayed).toBe(true)
      expect(refund.amount).toBe(1500)
    })

    it("returns a failed refund as data, with its failure code", async () => {
      mock.on("POST", "/v1/refunds", ok(refundData({ status: "failed", failureCode: "REFUND_DECLINED" })))
      const refund = await mock.client.refunds.create({ paymentIntentId: "pi_123", reason: "fraudulent" })
      expect(refund.status).toBe("failed")
      expect(refund.failureCode).toBe("REFUND_DECLINED")
    })

    it("rejects a refund answer with an unknown status", async () => {
      mock.on("POST", "/v1/refunds", ok(refundData({ status: "done" }), "req_bad"))
      const error = await mock.client.refunds.create({ paymentIntentId: "pi_123", reason: "duplicate" }).catch((e) => e)
      expect(error).toBeInstanceOf(UnexpectedResponseError)
      expect(error.message).toContain("data.status")
      expect(error.requestId).toBe("req_bad")
    })
  })

  describe("list", () => {
    it("GETs with the filter and parses the page", async () => {
      mock.on("GET", "/v1/refunds", ok({ items: [refundData(), refundData({ id: "re_2" })], hasMore: false }, "req_rl"))
      const page = await mock.client.refunds.list({ paymentIntentId: "pi_123", limit: 10 })
      const [req] = mock.requests
      expect(req!.method).toBe("GET")
      expect(req!.pathname).toBe("/v1/refunds")
      expect(req!.query).toEqual({ paymentIntentId: "pi_123", limit: "10" })
      expect(req!.headers["idempotency-key"]).toBeUndefined()
      expect(page.items.map((r) => r.id)).toEqual(["re_1", "re_2"])
      expect(page.hasMore).toBe(false)
      expect(page.lastResponse.requestId).toBe("req_rl")
    })

    it("works without parameters", async () => {
      mock.on("GET", "/v1/refunds", ok({ items: [], hasMore: false }))
      await mock.client.refunds.list()
      expect(mock.requests[0]!.path).toBe("/v1/refunds")
    })
  })

  describe("retrieve", () => {
    it("GETs one refund by id", async () => {
      mock.on("GET", "/v1/refunds/re_1", ok(refundData({ status: "succeeded" }), "req_rg"))
      const refund = await mock.client.refunds.retrieve("re_1")
      expect(mock.requests[0]!.method).toBe("GET")
      expect(mock.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
      expect(refund.status).toBe("succeeded")
      expect(refund.lastResponse.requestId).toBe("req_rg")
    })

    it("rejects a refund without paymentIntentId", async () => {
      const { paymentIntentId: _dropped, ...partial } = refundData()
      mock.on("GET", "/v1/refunds/re_1", ok(partial))
      await expect(mock.client.refunds.retrieve("re_1")).rejects.toThrow(UnexpectedResponseError)
    })
  })
})
