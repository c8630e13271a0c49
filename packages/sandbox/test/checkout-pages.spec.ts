import { type Delivery, startTestSandbox, SUCCESS_CARD, sortedKeys, type TestSandbox, THREE_DS_CARD } from "./helpers"

/**
 * Spec 3.1, 4.1, 6.2 and 8 through the hosted pages, driven by plain HTTP: GET the
 * page, POST its form, read the redirect. Test cards decide the outcome.
 */

const CHARGE_FIELDS = [
  "purpose", "id", "transactionId", "transactionHid", "merchantId", "orderId", "action", "status", "success",
  "paymentMethod", "amount", "currency", "paymentInfo", "authCode", "customId", "productDetails", "userPhone",
  "createdAt", "paidAt", "message", "subscriptionId", "period", "numberOfPeriods", "isRetry", "failureCode",
  "scheduleStatus", "nextChargeAt",
]

describe("hosted checkout pages", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())

  async function chargeNotices(id: string): Promise<Delivery[]> {
    const list = (await sb.notifications({ purpose: "charge" })).filter((n) => n.body.id === id)
    for (const n of list) {
      for (const key of Object.keys(n.body)) {
        expect(CHARGE_FIELDS).toContain(key)
      }
    }
    return list
  }

  it("shows a form with a heading, the amount, the methods and stable field names", async () => {
    const { id } = await sb.checkout({ allowedPaymentMethods: ["cvs", "atm", "linePay"] })
    const page = await sb.page(`/checkout/${id}`)
    expect(page.status).toBe(200)
    expect(page.html).toContain('<h1 id="title">Checkout</h1>')
    expect(page.html).toContain("TWD 300")
    expect(page.html).toContain(`action="/checkout/${id}"`)
    for (const field of ['name="cardNumber"', 'name="cardExpiry"', 'name="cardCvc"', 'id="submit"', 'id="method-card"', 'id="method-cvs"', 'id="method-atm"', 'id="method-linePay"']) {
      expect(page.html).toContain(field)
    }
    expect(page.html).not.toContain('id="method-applePay"')
    expect(page.html).not.toMatch(/<(link|img)[^>]+(href|src)="http/)
  })

  it("card success: redirect to successUrl unchanged, transaction charged, charge notification with success", async () => {
    const { id, transactionHid } = await sb.checkout({ successUrl: "https://shop.test/done?order=1", customId: "sess_123" })
    const res = await sb.payCard(`/checkout/${id}`)
    expect(res.status).toBe(303)
    expect(res.location).toBe("https://shop.test/done?order=1")
    const tx = await sb.transaction(id)
    expect(tx).toMatchObject({ status: "charged", paymentMethod: "card", paymentInfo: "4242", customId: "sess_123", transactionHid })
    expect(tx.authCode).toMatch(/^\d{6}$/)
    const [notice] = await chargeNotices(id)
    expect(sortedKeys(notice.body)).toEqual(
      ["action", "amount", "authCode", "createdAt", "currency", "customId", "id", "merchantId", "orderId", "paidAt", "paymentInfo", "paymentMethod", "productDetails", "purpose", "status", "success", "transactionHid", "transactionId"].sort()
    )
    expect(notice.body).toMatchObject({ purpose: "charge", action: "onetime", status: "charged", success: true, currency: "twd", amount: 300, transactionId: id })
    // the page is spent
    expect((await sb.page(`/checkout/${id}`)).html).toContain('id="finished"')
  })

  it("null successUrl shows a result page instead of redirecting", async () => {
    const { id } = await sb.checkout({ successUrl: null })
    const res = await sb.payCard(`/checkout/${id}`)
    expect(res.location).toBe(`/checkout/result/${id}`)
    expect((await sb.page(res.location!)).html).toContain("Payment complete")
  })

  const failureCards: [string, string, string][] = [
    ["4000000000000010", "invalid_card_number", "T0001"],
    ["4000000000000028", "invalid_cvv", "T0001"],
    ["4000000000000036", "expired_card", "T0001"],
    ["4000000000000044", "exceeds_credit_limit", "T0002"],
    ["4000000000000051", "payment_refused", "T0003"],
    ["4000000000000069", "duplicate_payment", "T0004"],
    ["4000000000000077", "charge_failed", "T0005"],
  ]
  it.each(failureCards)("card %s fails with %s: failureUrl?payment_error=%s, transaction failed", async (card, failureCode, paymentError) => {
    const { id } = await sb.checkout()
    const res = await sb.payCard(`/checkout/${id}`, card)
    expect(res.status).toBe(303)
    expect(res.location).toBe(`https://shop.test/fail?payment_error=${paymentError}`)
    expect((await sb.transaction(id)).status).toBe("failed")
    const [notice] = await chargeNotices(id)
    expect(notice.body).toMatchObject({ status: "failed", success: false, failureCode, paymentMethod: "card" })
    expect(notice.body).not.toHaveProperty("paidAt")
    expect(notice.body).not.toHaveProperty("authCode")
  })

  it("malformed card input fails like the matching test card", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ cardNumber: "4242424242424241" }, "invalid_card_number"],
      [{ cardExpiry: "01/20" }, "expired_card"],
      [{ cardCvc: "1" }, "invalid_cvv"],
    ]
    for (const [input, failureCode] of cases) {
      const { id } = await sb.checkout()
      const res = await sb.page(`/checkout/${id}`, { method: "card", cardNumber: SUCCESS_CARD, cardExpiry: "12/39", cardCvc: "123", ...input })
      expect(res.location).toBe("https://shop.test/fail?payment_error=T0001")
      expect((await chargeNotices(id))[0].body.failureCode).toBe(failureCode)
    }
  })

  it("appends payment_error to a failureUrl with a query and drops its fragment", async () => {
    const { id } = await sb.checkout({ failureUrl: "https://shop.test/fail?cart=9#top" })
    const res = await sb.payCard(`/checkout/${id}`, "4000000000000051")
    expect(res.location).toBe("https://shop.test/fail?cart=9&payment_error=T0003")
  })

  describe("3-D Secure", () => {
    it("the 3DS card goes through a challenge; completing it charges", async () => {
      const { id } = await sb.checkout()
      const res = await sb.payCard(`/checkout/${id}`, THREE_DS_CARD)
      expect(res.location).toBe(`/checkout/3ds/${id}`)
      expect((await sb.transaction(id)).status).toBe("initiated")
      const challenge = await sb.page(`/checkout/3ds/${id}`)
      expect(challenge.html).toContain('<h1 id="title">3-D Secure verification</h1>')
      expect(challenge.html).toContain('id="complete"')
      // going back to the checkout page lands on the challenge
      expect((await sb.page(`/checkout/${id}`)).location).toBe(`/checkout/3ds/${id}`)
      const done = await sb.page(`/checkout/3ds/${id}`, { action: "complete" })
      expect(done.location).toBe("https://shop.test/ok")
      expect((await sb.transaction(id)).status).toBe("charged")
      expect((await sb.page(`/checkout/3ds/${id}`, { action: "complete" })).status).toBe(400)
    })

    it("an unfinished challenge fails the transaction after 10 minutes with 3DS_ABANDONED", async () => {
      const { id } = await sb.checkout()
      await sb.payCard(`/checkout/${id}`, THREE_DS_CARD)
      await sb.advance(9 * 60 + 50)
      expect((await sb.transaction(id)).status).toBe("initiated")
      expect(await chargeNotices(id)).toHaveLength(0)
      await sb.advance(10)
      expect((await sb.transaction(id)).status).toBe("failed")
      const [notice] = await chargeNotices(id)
      expect(notice.body).toMatchObject({ status: "failed", success: false, message: "3DS_ABANDONED" })
      // completing afterwards changes nothing
      expect((await sb.page(`/checkout/3ds/${id}`)).html).toContain('id="finished"')
    })

    it("use3d and an always-3D domain force the challenge for any card", async () => {
      const forced = await sb.checkout({ use3d: true })
      expect((await sb.payCard(`/checkout/${forced.id}`)).location).toBe(`/checkout/3ds/${forced.id}`)
      await sb.patchMerchant({ always3d: true })
      try {
        const always = await sb.checkout({ use3d: false })
        expect((await sb.payCard(`/checkout/${always.id}`)).location).toBe(`/checkout/3ds/${always.id}`)
      } finally {
        await sb.patchMerchant({ always3d: false })
      }
      const plain = await sb.checkout()
      expect((await sb.payCard(`/checkout/${plain.id}`)).location).toBe("https://shop.test/ok")
    })
  })

  describe("page validity", () => {
    it("after 5 minutes the consumer goes to failureUrl?payment_error=V0002 and the transaction is unchanged, unnotified", async () => {
      const { id } = await sb.checkout()
      await sb.advance(4 * 60 + 50)
      expect((await sb.page(`/checkout/${id}`)).status).toBe(200)
      // before expiry the expiry address sends the consumer back to the page
      expect((await sb.page(`/checkout/expired/${id}`)).location).toBe(`/checkout/${id}`)
      await sb.advance(10)
      const expired = await sb.page(`/checkout/${id}`)
      expect(expired.status).toBe(303)
      expect(expired.location).toBe("https://shop.test/fail?payment_error=V0002")
      expect((await sb.page(`/checkout/expired/${id}`)).location).toBe("https://shop.test/fail?payment_error=V0002")
      const late = await sb.payCard(`/checkout/${id}`)
      expect(late.location).toBe("https://shop.test/fail?payment_error=V0002")
      expect((await sb.transaction(id)).status).toBe("initiated")
      expect(await chargeNotices(id)).toHaveLength(0)
    })

    it("counts from the API call, not from opening the page; null failureUrl shows an expired page", async () => {
      const { id } = await sb.checkout({ failureUrl: null })
      await sb.advance(5 * 60)
      const res = await sb.page(`/checkout/${id}`)
      expect(res.status).toBe(200)
      expect(res.html).toContain('id="expired"')
    })

    it("the card-binding page lasts 10 minutes", async () => {
      const { id } = await sb.ok("POST", "/checkout-token", { merchantId: "demo-shop", successUrl: null, failureUrl: "https://shop.test/f" })
      await sb.advance(9 * 60 + 50)
      expect((await sb.page(`/checkout/subscription/create/${id}`)).status).toBe(200)
      await sb.advance(10)
      expect((await sb.page(`/checkout/subscription/create/${id}`)).location).toBe("https://shop.test/f?payment_error=V0002")
    })

    it("unknown ids and pages of another kind are 404", async () => {
      const { id } = await sb.checkout()
      expect((await sb.page("/checkout/AAAAAAAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404)
      expect((await sb.page(`/checkout/schedule/${id}`)).status).toBe(404)
    })
  })

  describe("other methods", () => {
    it("cvs: a code is issued (charging, notified without success), paid later -> charged with success", async () => {
      const { id } = await sb.checkout({ allowedPaymentMethods: ["cvs"] })
      const issuedAt = await sb.now()
      const res = await sb.page(`/checkout/${id}`, { method: "cvs", cvsName: "FamilyMart" })
      expect(res.location).toBe(`/checkout/result/${id}`)
      const codePage = await sb.page(res.location!)
      expect(codePage.html).toContain('id="payment-code"')
      expect(codePage.html).toContain('href="https://shop.test/ok"')
      const tx = await sb.transaction(id)
      expect(tx.status).toBe("charging")
      const info = tx.paymentInfo as { cvsName: string; code: string; expiredAt: string }
      expect(info.cvsName).toBe("FamilyMart")
      expect(codePage.html).toContain(info.code)
      expect(Date.parse(info.expiredAt) - issuedAt).toBeGreaterThanOrEqual(3 * 86400_000 - 1000)
      expect(Date.parse(info.expiredAt) - issuedAt).toBeLessThanOrEqual(3 * 86400_000 + 1000)
      const [charging] = await chargeNotices(id)
      expect(charging.body).toMatchObject({ status: "charging", paymentMethod: "cvs", paymentInfo: info })
      expect(charging.body).not.toHaveProperty("success")
      expect((await sb.control("POST", `/transactions/${id}/pay`)).status).toBe(200)
      const notices = await chargeNotices(id)
      expect(notices).toHaveLength(2)
      expect(notices[1].body).toMatchObject({ status: "charged", success: true, paymentMethod: "cvs" })
      expect(notices[1].body.paidAt).toEqual(expect.any(String))
      expect((await sb.transaction(id)).status).toBe("charged")
      // paying twice is refused
      expect((await sb.control("POST", `/transactions/${id}/pay`)).status).toBe(409)
    })

    it("cvs: an unpaid code expires after 3 days -> failed with PAYMENT_EXPIRED", async () => {
      const { id } = await sb.checkout({ allowedPaymentMethods: ["cvs"] })
      await sb.page(`/checkout/${id}`, { method: "cvs" })
      await sb.advance(3 * 86400 - 60)
      expect((await sb.transaction(id)).status).toBe("charging")
      await sb.advance(60)
      expect((await sb.transaction(id)).status).toBe("failed")
      const notices = await chargeNotices(id)
      expect(notices[1].body).toMatchObject({ status: "failed", success: false, message: "PAYMENT_EXPIRED" })
    })

    it("atm: a virtual account valid 1 day; expiring it through the control API fails the payment", async () => {
      const { id, transactionHid } = await sb.checkout({ allowedPaymentMethods: ["atm"] })
      await sb.page(`/checkout/${id}`, { method: "atm" })
      const tx = await sb.transaction(id)
      const info = tx.paymentInfo as Record<string, string>
      expect(sortedKeys(info)).toEqual(["account", "bankCode", "bankName", "expiredAt"])
      expect((await sb.page(`/checkout/result/${id}`)).html).toContain(info.account)
      expect((await sb.control("POST", `/transactions/${transactionHid}/expire`)).status).toBe(200)
      expect((await sb.transaction(id)).status).toBe("failed")
      expect((await chargeNotices(id))[1].body.message).toBe("PAYMENT_EXPIRED")
    })

    it("atm: paying the account through the control API charges it", async () => {
      const { id } = await sb.checkout({ allowedPaymentMethods: ["atm"] })
      await sb.page(`/checkout/${id}`, { method: "atm" })
      await sb.control("POST", `/transactions/${id}/pay`)
      expect((await sb.transaction(id)).status).toBe("charged")
      await sb.advance(86400)
      expect((await sb.transaction(id)).status).toBe("charged")
    })

    it("linePay completes at once with the wallet transaction number", async () => {
      const { id } = await sb.checkout({ allowedPaymentMethods: ["linePay"] })
      const res = await sb.page(`/checkout/${id}`, { method: "linePay" })
      expect(res.location).toBe("https://shop.test/ok")
      const tx = await sb.transaction(id)
      expect(tx).toMatchObject({ status: "charged", paymentMethod: "linePay" })
      expect(tx.paymentInfo).toMatch(/^\d{19}$/)
    })

    it("offers only the allowed methods: card always, others on request", async () => {
      const { id } = await sb.checkout()
      const res = await sb.page(`/checkout/${id}`, { method: "cvs" })
      expect(res.status).toBe(400)
      expect(res.html).toContain('id="error"')
      expect((await sb.transaction(id)).status).toBe("initiated")
    })

    it("applePay appears only on a capable device (?applePay=1); approved -> charged without paymentInfo", async () => {
      const { id } = await sb.checkout()
      expect((await sb.page(`/checkout/${id}`, { method: "applePay" })).status).toBe(400)
      const page = await sb.page(`/checkout/${id}?applePay=1`)
      expect(page.html).toContain('id="method-applePay"')
      const res = await sb.page(`/checkout/${id}`, { method: "applePay", applePayDevice: "1", applePayOutcome: "success" })
      expect(res.location).toBe("https://shop.test/ok")
      const tx = await sb.transaction(id)
      expect(tx).toMatchObject({ status: "charged", paymentMethod: "applePay" })
      expect(tx).not.toHaveProperty("paymentInfo")
    })

    it("applePay awaiting confirmation: charging, then confirmed", async () => {
      const { id } = await sb.checkout()
      await sb.page(`/checkout/${id}`, { method: "applePay", applePayDevice: "1", applePayOutcome: "pending" })
      expect((await sb.transaction(id)).status).toBe("charging")
      expect((await chargeNotices(id))[0].body).not.toHaveProperty("success")
      await sb.control("POST", `/transactions/${id}/pay`)
      expect((await sb.transaction(id)).status).toBe("charged")
    })

    it("applePay awaiting confirmation expires unpaid after 30 minutes -> failed with PAYMENT_EXPIRED", async () => {
      const { id } = await sb.checkout()
      await sb.page(`/checkout/${id}`, { method: "applePay", applePayDevice: "1", applePayOutcome: "pending" })
      await sb.advance(29 * 60)
      expect((await sb.transaction(id)).status).toBe("charging")
      await sb.advance(60)
      expect((await sb.transaction(id)).status).toBe("failed")
      expect((await chargeNotices(id))[1].body).toMatchObject({ status: "failed", success: false, message: "PAYMENT_EXPIRED", paymentMethod: "applePay" })
    })

    it("recurring pages offer the card only", async () => {
      const { id } = await sb.ok("POST", "/checkout-subscription", { ...baseBody(), allowedPaymentMethods: ["cvs"] })
      const page = await sb.page(`/checkout/subscription/${id}`)
      expect(page.html).toContain('<h1 id="title">Recurring payment</h1>')
      expect(page.html).not.toContain('id="method-cvs"')
    })
  })

  it("a transaction left on the page stays initiated indefinitely and is never notified", async () => {
    const { id } = await sb.checkout()
    await sb.advance(2 * 86400)
    expect((await sb.transaction(id)).status).toBe("initiated")
    expect(await chargeNotices(id)).toHaveLength(0)
  })
})

function baseBody() {
  return {
    merchantId: "demo-shop",
    amount: 300,
    orderId: "order-sub",
    successUrl: "https://shop.test/ok",
    failureUrl: "https://shop.test/fail",
    productDetails: [{ productionCode: "TEA-01", description: "Tea club", quantity: 1, unit: "month", unitPrice: 300 }],
  }
}
