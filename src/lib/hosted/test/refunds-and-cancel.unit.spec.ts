import { AuthenticationError, DeclinedError, InvalidRequestError, UnknownOutcomeError } from "../../http"
import { API_TOKEN, fail, ITEM, MERCHANT, mockApi, ok, SUB_HID, TX_HID, TX_ID } from "./mock-api"

const REMIT = {
  bankCode: "812",
  bankName: "Taishin International Bank",
  branchCode: "0012",
  branchName: "Jianguo",
  account: "20881000123456",
  accountName: "Lin Mei-Ling",
}

describe("refunds.create (POST /refunds/{transactionHid})", () => {
  let api: ReturnType<typeof mockApi>
  beforeEach(() => {
    api = mockApi()
  })
  afterEach(async () => {
    await api.close()
  })

  const sent = () => {
    expect(api.requests).toHaveLength(1)
    const [req] = api.requests
    expect(req).toMatchObject({ method: "POST", path: `/api/refunds/${TX_HID}` })
    expect(req.headers.authorization).toBe(`Bearer ${API_TOKEN}`)
    expect(req.headers["content-type"]).toBe("application/json")
    return req.body
  }

  it("full refund: sends only merchantId and returns the new status", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, ok({ status: "refunded", refundAmount: 1200 }))
    const result = await api.client.refunds.create(TX_HID)
    expect(sent()).toEqual({ merchantId: MERCHANT })
    expect(result).toEqual({ status: "refunded", refundAmount: 1200 })
  })

  it("partial refund of a paid cvs payment with remittance and allowance items", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, ok({ status: "refunding", refundAmount: 600 }))
    const body = { amount: 600, reason: "one pack damaged", remitInfo: REMIT, productDetails: [{ ...ITEM, quantity: 1 }] }
    const result = await api.client.refunds.create(TX_HID, body)
    expect(sent()).toEqual({ merchantId: MERCHANT, ...body })
    expect(result).toEqual({ status: "refunding", refundAmount: 600 })
  })

  it("a refund result without refundAmount -> UnexpectedResponseError", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, ok({ status: "refunded" }))
    await expect(api.client.refunds.create(TX_HID)).rejects.toMatchObject({ name: "UnexpectedResponseError" })
  })

  it.each([
    ["V0002", "status cannot be refunded", undefined],
    ["V0001", "REMITTANCE_INFO_REQUIRED", "REMITTANCE_INFO_REQUIRED"],
    ["V0001", "PRODUCT_DETAILS_REQUIRED", "PRODUCT_DETAILS_REQUIRED"],
  ])("400 %s '%s' -> InvalidRequestError", async (code, message, variant) => {
    api.reply("POST", `/refunds/${TX_HID}`, fail(400, code, message))
    const error = await api.client.refunds.create(TX_HID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).toMatchObject({ code, status: 400, variant, retryable: false })
  })

  it("400 R0001 (acquirer refused) -> DeclinedError", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, fail(400, "R0001", "refund rejected by acquirer"))
    const error = await api.client.refunds.create(TX_HID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeclinedError)
    expect(error).toMatchObject({ code: "R0001", status: 400, retryable: false })
  })

  it("500 F0001 'Current charged amount too low' -> InvalidRequestError CURRENT_CHARGED_AMOUNT_TOO_LOW", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, fail(500, "F0001", "Current charged amount too low"))
    const error = await api.client.refunds.create(TX_HID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).toMatchObject({ code: "F0001", status: 500, variant: "CURRENT_CHARGED_AMOUNT_TOO_LOW" })
    expect(api.requests).toHaveLength(1)
  })

  it("any other 500 -> UnknownOutcomeError, never resent", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, fail(500, "F0001", "system error"), 3)
    const error = await api.client.refunds.create(TX_HID, { amount: 100 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(error).toMatchObject({ code: "F0001", status: 500, retryable: false })
    expect(api.requests).toHaveLength(1)
  })

  it("401 A0001 -> AuthenticationError", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, fail(401, "A0001", "unauthorized"))
    await expect(api.client.refunds.create(TX_HID)).rejects.toBeInstanceOf(AuthenticationError)
  })

  it("keeps the remittance account out of error messages", async () => {
    api.reply("POST", `/refunds/${TX_HID}`, fail(400, "V0001", `account ${REMIT.account} invalid`))
    const error = (await api.client.refunds.create(TX_HID, { remitInfo: REMIT }).catch((e: unknown) => e)) as Error
    expect(error.message).not.toContain(REMIT.account)
  })

  it("refuses the 27-character id as path (refunds take the P number) before sending", async () => {
    api.catchAll()
    const error = await api.client.refunds.create(TX_ID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as Error).message).toContain("P transaction number")
    expect(api.requests).toHaveLength(0)
  })
})

describe("subscriptions.cancel (PUT /subscriptions/{subscriptionHid})", () => {
  let api: ReturnType<typeof mockApi>
  beforeEach(() => {
    api = mockApi()
  })
  afterEach(async () => {
    await api.close()
  })

  const cancelled = {
    id: SUB_HID,
    status: "cancelled",
    period: 3,
    paymentInterval: 1,
    startedAt: "2026-08-22T01:00:00.000Z",
    cancelledAt: "2026-11-21T16:30:01.000Z",
    reason: "customer request",
    createdAt: "2026-08-21T16:00:00.000Z",
  }

  it("sends a body with merchantId and reason, returns the cancelled record", async () => {
    api.reply("PUT", `/subscriptions/${SUB_HID}`, ok(cancelled))
    const result = await api.client.subscriptions.cancel(SUB_HID, { reason: "customer request" })
    expect(api.requests).toHaveLength(1)
    const [req] = api.requests
    expect(req).toMatchObject({ method: "PUT", path: `/api/subscriptions/${SUB_HID}` })
    expect(req.headers.authorization).toBe(`Bearer ${API_TOKEN}`)
    expect(req.headers["content-type"]).toBe("application/json")
    expect(req.body).toEqual({ merchantId: MERCHANT, reason: "customer request" })
    expect(result).toEqual(cancelled)
  })

  it("always sends a body, even without a reason", async () => {
    api.reply("PUT", `/subscriptions/${SUB_HID}`, ok(cancelled))
    await api.client.subscriptions.cancel(SUB_HID)
    expect(api.requests[0].body).toEqual({ merchantId: MERCHANT })
  })

  it.each([
    [400, "V0001", InvalidRequestError],
    [400, "V0002", InvalidRequestError],
    [401, "A0001", AuthenticationError],
  ])("%s %s -> %p", async (status, code, type) => {
    api.reply("PUT", `/subscriptions/${SUB_HID}`, fail(status, code, "cannot cancel"))
    const error = await api.client.subscriptions.cancel(SUB_HID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(type)
    expect(error).toMatchObject({ code, status, retryable: false })
  })

  it("a 5xx on cancel -> UnknownOutcomeError, not resent", async () => {
    api.reply("PUT", `/subscriptions/${SUB_HID}`, { status: 503, text: "Service Unavailable" }, 3)
    const error = await api.client.subscriptions.cancel(SUB_HID).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(api.requests).toHaveLength(1)
  })

  it("rejects an internal id before sending", async () => {
    api.catchAll()
    await expect(api.client.subscriptions.cancel("sub_8f3a9c2e")).rejects.toMatchObject({ code: "CLIENT_VALIDATION" })
    expect(api.requests).toHaveLength(0)
  })
})
