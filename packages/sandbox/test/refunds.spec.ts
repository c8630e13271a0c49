import { checkoutBody, product, sortedKeys, startTestSandbox, type TestSandbox } from "./helpers"

/** Spec 3.1 (refund rows), 4.10 and 6.5. */

// A Monday, 10:00 Taipei: remittance counts working days from here.
const NOW = new Date("2025-06-09T02:00:00Z")

const REMIT = {
  bankCode: "812",
  bankName: "Taishin",
  branchCode: "0012",
  branchName: "Xinyi",
  account: "1234567890",
  accountName: "Chen",
}

const REFUND_FIELDS = [
  "purpose", "id", "refundId", "chargeId", "chargeHumanId", "amount", "origAmount", "currency", "refundStatus",
  "reason", "paymentMethod", "requestedAt", "resolvedAt", "customId", "subscriptionId", "period",
]

describe("refunds", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox({ now: NOW, defaultMerchant: { newEventOption: true } })
  })
  afterAll(() => sb.close())

  const refund = (hid: string, body: Record<string, unknown> = {}, token?: string) =>
    sb.api("POST", `/refunds/${hid}`, { merchantId: "demo-shop", ...body }, { token })

  async function refundNotices(chargeId: string) {
    const list = (await sb.notifications({ purpose: "refund" })).filter((n) => n.body.chargeId === chargeId)
    for (const n of list) {
      for (const key of Object.keys(n.body)) {
        expect(REFUND_FIELDS).toContain(key)
      }
    }
    return list
  }

  async function paidCode(method: "cvs" | "atm") {
    const created = await sb.checkout({ allowedPaymentMethods: [method] })
    await sb.page(`/checkout/${created.id}`, { method })
    await sb.control("POST", `/transactions/${created.id}/pay`)
    return created
  }

  it("a card refund completes at once: refunded, response { status, refundAmount }, refund notification", async () => {
    const { id, transactionHid } = await sb.paidCheckout({ customId: "sess-r1" })
    const res = await refund(transactionHid, { reason: "changed mind" })
    expect(res.status).toBe(200)
    expect(res.json.data).toEqual({ status: "refunded", refundAmount: 300 })
    expect(await sb.transaction(id)).toMatchObject({ status: "refunded", refundAmount: 300 })
    const [notice] = await refundNotices(id)
    expect(sortedKeys(notice.body)).toEqual(
      ["amount", "chargeHumanId", "chargeId", "currency", "customId", "id", "origAmount", "paymentMethod", "purpose", "reason", "refundId", "refundStatus", "requestedAt", "resolvedAt"].sort()
    )
    expect(notice.body).toMatchObject({ purpose: "refund", refundStatus: "refunded", amount: 300, origAmount: 300, currency: "twd", chargeHumanId: transactionHid, paymentMethod: "card", reason: "changed mind" })
    expect(notice.body.id).not.toBe(notice.body.refundId)
  })

  it("one refund per transaction: a partial refund uses it up; a second refund is V0002", async () => {
    const { id, transactionHid } = await sb.paidCheckout()
    expect((await refund(transactionHid, { amount: 100 })).json.data).toEqual({ status: "refunded", refundAmount: 100 })
    expect((await sb.transaction(id)).refundAmount).toBe(100)
    const again = await refund(transactionHid, { amount: 50 })
    expect(again.status).toBe(400)
    expect(again.json.code).toBe("V0002")
  })

  it("refuses an amount above the original (V0001) and non-integer amounts", async () => {
    const { transactionHid } = await sb.paidCheckout()
    expect((await refund(transactionHid, { amount: 301 })).json.code).toBe("V0001")
    expect((await refund(transactionHid, { amount: 10.5 })).json.code).toBe("V0001")
    expect((await refund(transactionHid, { amount: 300 })).json.data).toEqual({ status: "refunded", refundAmount: 300 })
  })

  it("refuses what is not charged or claimed with V0002: initiated, failed, unpaid atm", async () => {
    const initiated = await sb.checkout()
    const failed = await sb.paidCheckout({}, "4000000000000051")
    const atm = await sb.checkout({ allowedPaymentMethods: ["atm"] })
    await sb.page(`/checkout/${atm.id}`, { method: "atm" })
    for (const hid of [initiated.transactionHid, failed.transactionHid, atm.transactionHid]) {
      const res = await refund(hid)
      expect(res.status).toBe(400)
      expect(res.json.code).toBe("V0002")
    }
  })

  it("takes the P number only: the 27-character id, unknown numbers and other domains are V0001", async () => {
    const { id } = await sb.paidCheckout()
    expect((await refund(id)).json.code).toBe("V0001")
    expect((await refund("P20250609ZZZZZZZZ")).json.code).toBe("V0001")
    const other = await sb.createMerchant({ merchantId: "refund-other" })
    const { transactionHid } = await sb.paidCheckout()
    expect((await refund(transactionHid, { merchantId: "refund-other" }, other.token)).json.code).toBe("V0001")
    expect((await refund(transactionHid, { merchantId: "refund-other" })).json.code).toBe("V0001")
  })

  it("a claimed transaction can be refunded", async () => {
    const { id, transactionHid } = await sb.paidCheckout()
    expect((await sb.control("POST", `/transactions/${id}/claim`)).status).toBe(200)
    expect((await sb.transaction(id)).status).toBe("claimed")
    expect((await refund(transactionHid)).json.data).toEqual({ status: "refunded", refundAmount: 300 })
  })

  it("Apple Pay refunds complete at once like card refunds", async () => {
    const { id, transactionHid } = await sb.checkout()
    await sb.page(`/checkout/${id}`, { method: "applePay", applePayDevice: "1" })
    expect((await refund(transactionHid)).json.data).toEqual({ status: "refunded", refundAmount: 300 })
    expect((await refundNotices(id))[0].body.paymentMethod).toBe("applePay")
  })

  it("LINE Pay refunds complete at once", async () => {
    const { id, transactionHid } = await sb.checkout({ allowedPaymentMethods: ["linePay"] })
    await sb.page(`/checkout/${id}`, { method: "linePay" })
    expect((await refund(transactionHid)).json.data).toEqual({ status: "refunded", refundAmount: 300 })
  })

  it("paid cvs: remitInfo required (REMITTANCE_INFO_REQUIRED, all six fields, account 8-14), then refunding -> refunded after 3 working days", async () => {
    const { id, transactionHid } = await paidCode("cvs")
    const missing = await refund(transactionHid)
    expect(missing.json).toEqual({ code: "V0001", data: {}, message: "REMITTANCE_INFO_REQUIRED" })
    const short = await refund(transactionHid, { remitInfo: { ...REMIT, account: "1234567" } })
    expect(short.json.code).toBe("V0001")
    expect(short.json.message).toContain("remitInfo.account")
    const { branchName: _b, ...fiveFields } = REMIT
    expect((await refund(transactionHid, { remitInfo: fiveFields })).json.message).toContain("remitInfo.branchName: required")
    expect((await refund(transactionHid, { remitInfo: { ...REMIT, account: "123456789012345" } })).json.code).toBe("V0001")

    const res = await refund(transactionHid, { remitInfo: REMIT })
    expect(res.json.data).toEqual({ status: "refunding", refundAmount: 300 })
    expect((await refund(transactionHid, { remitInfo: REMIT })).json.code).toBe("V0002")
    // Monday + 3 working days = Thursday; 2 days on it is still refunding
    await sb.advance(2 * 86400)
    expect((await sb.transaction(id)).status).toBe("refunding")
    await sb.advance(86400)
    expect((await sb.transaction(id)).status).toBe("refunded")
    const notices = await refundNotices(id)
    expect(notices.map((n) => n.body.refundStatus)).toEqual(["refunding", "refunded"])
    expect(notices[0].body).not.toHaveProperty("resolvedAt")
    expect(notices[1].body.resolvedAt).toEqual(expect.any(String))
    expect(notices[0].body.refundId).toBe(notices[1].body.refundId)
  })

  it("paid atm also goes through refunding; working days skip the weekend", async () => {
    // Friday 10:00 Taipei: 3 working days later is Wednesday
    await sb.setClock("2025-06-13T02:00:00.000Z")
    const { id, transactionHid } = await paidCode("atm")
    expect((await refund(transactionHid)).json.message).toBe("REMITTANCE_INFO_REQUIRED")
    expect((await refund(transactionHid, { remitInfo: REMIT, amount: 120 })).json.data).toEqual({ status: "refunding", refundAmount: 120 })
    await sb.advance(4 * 86400)
    expect((await sb.transaction(id)).status).toBe("refunding")
    await sb.advance(86400)
    expect(await sb.transaction(id)).toMatchObject({ status: "refunded", refundAmount: 120 })
  })

  it("an unpaid cvs code is cancelled, and no longer expires", async () => {
    const { id, transactionHid } = await sb.checkout({ allowedPaymentMethods: ["cvs"] })
    await sb.page(`/checkout/${id}`, { method: "cvs" })
    const res = await refund(transactionHid)
    expect(res.json.data).toEqual({ status: "cancelled", refundAmount: 300 })
    await sb.advance(4 * 86400)
    expect((await sb.transaction(id)).status).toBe("cancelled")
    const [notice] = await refundNotices(id)
    expect(notice.body).toMatchObject({ refundStatus: "cancelled", paymentMethod: "cvs" })
    expect((await sb.control("POST", `/transactions/${id}/pay`)).status).toBe(409)
  })

  it("after payout a card refund is refundedPostPayout", async () => {
    const early = await sb.paidCheckout()
    await sb.advance(7 * 86400)
    // keep enough collected, not yet paid out, for the refund to be allowed
    await sb.paidCheckout()
    expect((await refund(early.transactionHid)).json.data).toEqual({ status: "refundedPostPayout", refundAmount: 300 })
    expect((await sb.transaction(early.id)).status).toBe("refundedPostPayout")
  })

  it("F0001 'Current charged amount too low' while the collected, not paid-out amount is below 200", async () => {
    const m = await sb.createMerchant({ merchantId: "small-shop" })
    const small = (amount: number) => checkoutBody({ merchantId: "small-shop", amount, productDetails: [product({ quantity: 1, unitPrice: amount })] })
    const first = (await sb.ok("POST", "/checkout", small(150), m.token)) as { id: string; transactionHid: string }
    await sb.payCard(`/checkout/${first.id}`)
    const refused = await refund(first.transactionHid, { merchantId: "small-shop" }, m.token)
    expect(refused.status).toBe(500)
    expect(refused.json).toEqual({ code: "F0001", data: {}, message: "Current charged amount too low" })
    expect((await sb.transaction(first.id, m.token)).status).toBe("charged")
    const second = (await sb.ok("POST", "/checkout", small(60), m.token)) as { id: string }
    await sb.payCard(`/checkout/${second.id}`)
    expect((await refund(first.transactionHid, { merchantId: "small-shop" }, m.token)).json.code).toBe("S0000")
  })

  it("R0001 when the acquirer rejects (card 4000 0000 0000 8005); the transaction stays charged", async () => {
    const { id, transactionHid } = await sb.paidCheckout({}, "4000000000008005")
    const res = await refund(transactionHid)
    expect(res.status).toBe(400)
    expect(res.json.code).toBe("R0001")
    expect((await sb.transaction(id)).status).toBe("charged")
  })

  it("e-invoice transactions need productDetails totalling the refund (PRODUCT_DETAILS_REQUIRED / PRODUCT_AMOUNT_NOT_MATCH)", async () => {
    const m = await sb.createMerchant({ merchantId: "invoice-refunds", einvoiceActive: true })
    const created = (await sb.ok("POST", "/checkout", checkoutBody({ merchantId: "invoice-refunds", userName: "Wu", userEmail: "wu@example.com" }), m.token)) as {
      id: string
      transactionHid: string
    }
    await sb.payCard(`/checkout/${created.id}`)
    const call = (body: Record<string, unknown>) => refund(created.transactionHid, { merchantId: "invoice-refunds", ...body }, m.token)
    expect((await call({ amount: 100 })).json.message).toBe("PRODUCT_DETAILS_REQUIRED")
    expect((await call({ amount: 100, productDetails: [product({ quantity: 1, unitPrice: 90 })] })).json.message).toBe("PRODUCT_AMOUNT_NOT_MATCH")
    expect((await call({ amount: 100, productDetails: [product({ quantity: 1, unitPrice: 100 })] })).json.data).toEqual({ status: "refunded", refundAmount: 100 })
  })

  it("refund notifications are sent only with the new-event option", async () => {
    await sb.patchMerchant({ newEventOption: false })
    try {
      const { id, transactionHid } = await sb.paidCheckout()
      expect((await refund(transactionHid)).json.code).toBe("S0000")
      expect(await refundNotices(id)).toHaveLength(0)
    } finally {
      await sb.patchMerchant({ newEventOption: true })
    }
  })

  it("needs merchantId in the body", async () => {
    const { transactionHid } = await sb.paidCheckout()
    const res = await sb.api("POST", `/refunds/${transactionHid}`, {})
    expect(res.json).toEqual({ code: "V0001", data: {}, message: "merchantId: required" })
  })
})
