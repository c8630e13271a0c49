import { checkoutBody, product, startTestSandbox, type TestSandbox } from "./helpers"

/** Spec 2.3, 7 and 8: request rules of the create endpoints and their V0001 / V0002 / K0001 answers. */

// 10:00 Taipei on 2025-06-10 (a Tuesday).
const NOW = new Date("2025-06-10T02:00:00Z")

describe("create endpoint validation", () => {
  let sb: TestSandbox
  let einvoiceToken: string

  beforeAll(async () => {
    sb = await startTestSandbox({ now: NOW })
    einvoiceToken = (await sb.createMerchant({ merchantId: "invoice-shop", einvoiceActive: true })).token
  })
  afterAll(() => sb.close())

  const post = (path: string, body: Record<string, unknown>, token?: string) => sb.api("POST", path, body, { token })
  const rulesOf = (message: unknown) => String(message).split("; ")

  async function expectV0001(path: string, body: Record<string, unknown>, expected: string[], token?: string) {
    const res = await post(path, body, token)
    expect(res.status).toBe(400)
    expect(res.json.code).toBe("V0001")
    expect(res.json.data).toEqual({})
    for (const rule of expected) {
      expect(rulesOf(res.json.message)).toContain(rule)
    }
    return rulesOf(res.json.message)
  }

  it("lists every missing required field of /checkout in one message", async () => {
    const rules = await expectV0001("/checkout", { merchantId: "demo-shop" }, [
      "amount: required",
      "orderId: required",
      "successUrl: required",
      "failureUrl: required",
      "productDetails: required",
    ])
    expect(rules).toHaveLength(5)
  })

  it("requires the successUrl and failureUrl keys but accepts null values", async () => {
    const { successUrl: _s, ...withoutSuccess } = checkoutBody()
    await expectV0001("/checkout", withoutSuccess, ["successUrl: required"])
    expect((await post("/checkout", checkoutBody({ successUrl: null, failureUrl: null }))).json.code).toBe("S0000")
    await expectV0001("/checkout", checkoutBody({ failureUrl: "/relative/path" }), ["failureUrl: must be an absolute URL with scheme"])
  })

  it("checks types and bounds: integers >= 1, TWD only, known payment methods, booleans, dates", async () => {
    await expectV0001("/checkout", checkoutBody({ amount: 0 }), ["amount: must be an integer >= 1"])
    await expectV0001("/checkout", checkoutBody({ amount: 1.5 }), ["amount: must be an integer >= 1"])
    await expectV0001("/checkout", checkoutBody({ amount: "300" }), ["amount: must be an integer >= 1"])
    await expectV0001("/checkout", checkoutBody({ currency: "USD" }), ["currency: only TWD is supported"])
    await expectV0001("/checkout", checkoutBody({ currency: "twd" }), ["currency: only TWD is supported"])
    await expectV0001("/checkout", checkoutBody({ productDetails: [product({ quantity: 0, unitPrice: 300 })] }), [
      "productDetails[0].quantity: must be an integer >= 1",
    ])
    await expectV0001("/checkout", checkoutBody({ productDetails: [] }), ["productDetails: must have at least one item"])
    await expectV0001("/checkout", checkoutBody({ productDetails: [{ quantity: 3, unitPrice: 100 }] }), [
      "productDetails[0].productionCode: required",
      "productDetails[0].description: required",
      "productDetails[0].unit: required",
    ])
    await expectV0001("/checkout", checkoutBody({ allowedPaymentMethods: ["card", "bitcoin"] }), [
      "allowedPaymentMethods[1]: must be card, cvs, linePay or atm",
    ])
    await expectV0001("/checkout", checkoutBody({ use3d: "yes" }), ["use3d: must be a boolean"])
    await expectV0001("/checkout", checkoutBody({ expectedPayoutDate: "2025-07-01" }), ["expectedPayoutDate: must be a date in the form yyyy/MM/dd"])
    await expectV0001("/checkout", checkoutBody({ userEmail: "not-an-email" }), ["userEmail: must be an email address"])
    expect((await post("/checkout", checkoutBody({ currency: "TWD", expectedPayoutDate: "2025/07/01", use3d: false }))).json.code).toBe("S0000")
  })

  it("rejects a product total that differs from amount (PRODUCT_AMOUNT_NOT_MATCH), together with other rules", async () => {
    const rules = await expectV0001("/checkout", checkoutBody({ amount: 301, orderId: 5 }), ["PRODUCT_AMOUNT_NOT_MATCH", "orderId: must be a string"])
    expect(rules).toHaveLength(2)
    const multi = [product({ quantity: 2, unitPrice: 150 }), product({ productionCode: "B", quantity: 1, unitPrice: 50 })]
    expect((await post("/checkout", checkoutBody({ amount: 350, productDetails: multi }))).json.code).toBe("S0000")
  })

  it("ignores fields the endpoint does not define", async () => {
    const res = await post("/checkout", checkoutBody({ notifyUrl: "https://x.test", cancelUrl: 12, numberOfPeriods: "x", token: 1 }))
    expect(res.json.code).toBe("S0000")
  })

  it("refuses linePay when LINE Pay is not activated (LINE_PAY_NOT_ACTIVE)", async () => {
    expect((await post("/checkout", checkoutBody({ allowedPaymentMethods: ["linePay"] }))).json.code).toBe("S0000")
    await sb.patchMerchant({ linePayActive: false })
    try {
      await expectV0001("/checkout", checkoutBody({ allowedPaymentMethods: ["cvs", "linePay"] }), ["LINE_PAY_NOT_ACTIVE"])
      expect((await post("/checkout", checkoutBody({ allowedPaymentMethods: ["cvs", "atm"] }))).json.code).toBe("S0000")
    } finally {
      await sb.patchMerchant({ linePayActive: true })
    }
  })

  it("answers V0002 PAYMENT_SERVICE_NOT_ACTIVATE when the service is not activated", async () => {
    const m = await sb.createMerchant({ merchantId: "inactive-shop", paymentServiceActive: false })
    for (const path of ["/checkout", "/checkout-subscription", "/checkout-schedule"]) {
      const res = await post(path, checkoutBody({ merchantId: "inactive-shop" }), m.token)
      expect(res.status).toBe(400)
      expect(res.json).toEqual({ code: "V0002", data: {}, message: "PAYMENT_SERVICE_NOT_ACTIVATE" })
    }
  })

  describe("e-invoice merchants", () => {
    const invoiceBody = (overrides: Record<string, unknown> = {}) =>
      checkoutBody({ merchantId: "invoice-shop", userName: "Lin", userEmail: "lin@example.com", ...overrides })

    it("require userName and userEmail (USER_NAME_AND_EMAIL_REQUIRED); others do not", async () => {
      await expectV0001("/checkout", invoiceBody({ userName: undefined }), ["USER_NAME_AND_EMAIL_REQUIRED"], einvoiceToken)
      await expectV0001("/checkout", invoiceBody({ userEmail: undefined }), ["USER_NAME_AND_EMAIL_REQUIRED"], einvoiceToken)
      await expectV0001("/checkout-subscription", invoiceBody({ userName: undefined, userEmail: undefined }), ["USER_NAME_AND_EMAIL_REQUIRED"], einvoiceToken)
      expect((await post("/checkout", invoiceBody(), einvoiceToken)).json.code).toBe("S0000")
      expect((await post("/checkout", checkoutBody())).json.code).toBe("S0000")
    })

    it("verify mobile barcodes: format and the tax authority's answer (INVALID_CARRIER_ID)", async () => {
      const cloud = (carrierType: string, carrierId?: string) => invoiceBody({ invoiceInfo: { invoiceType: "cloud", carrierType, carrierId } })
      expect((await post("/checkout", cloud("3J0002", "/ABC+1.-"), einvoiceToken)).json.code).toBe("S0000")
      await expectV0001("/checkout", cloud("3J0002", "/AAAAAAA"), ["INVALID_CARRIER_ID"], einvoiceToken)
      await expectV0001("/checkout", cloud("3J0002", "ABC1234"), ["INVALID_CARRIER_ID"], einvoiceToken)
      await expectV0001("/checkout", cloud("3J0002", "/abc1234"), ["INVALID_CARRIER_ID"], einvoiceToken)
      await expectV0001("/checkout", cloud("3J0002"), ["INVALID_CARRIER_ID"], einvoiceToken)
      expect((await post("/checkout", cloud("CQ0001", "AB12345678901234"), einvoiceToken)).json.code).toBe("S0000")
      await expectV0001("/checkout", cloud("CQ0001", "A123456789012345"), ["INVALID_CARRIER_ID"], einvoiceToken)
      expect((await post("/checkout", cloud(""), einvoiceToken)).json.code).toBe("S0000")
      await expectV0001("/checkout", invoiceBody({ invoiceInfo: { invoiceType: "cloud" } }), ["invoiceInfo.carrierType: required for cloud invoices"], einvoiceToken)
      await expectV0001("/checkout", invoiceBody({ invoiceInfo: { invoiceType: "paper" } }), ["invoiceInfo.invoiceType: must be cloud or company"], einvoiceToken)
    })

    it("verify the company tax id check digit (INVALID_TAX_ID_NUMBER)", async () => {
      const company = (buyerIdentifier?: string) => invoiceBody({ invoiceInfo: { invoiceType: "company", buyerIdentifier, buyerName: "ACME" } })
      expect((await post("/checkout", company("04595257"), einvoiceToken)).json.code).toBe("S0000")
      // seventh digit 7: 10458574 sums to 29, valid only through the "sum + 1" rule
      expect((await post("/checkout", company("10458574"), einvoiceToken)).json.code).toBe("S0000")
      await expectV0001("/checkout", company("10458573"), ["INVALID_TAX_ID_NUMBER"], einvoiceToken)
      await expectV0001("/checkout", company("12345678"), ["INVALID_TAX_ID_NUMBER"], einvoiceToken)
      await expectV0001("/checkout", company("0459525"), ["INVALID_TAX_ID_NUMBER"], einvoiceToken)
      await expectV0001("/checkout", company(undefined), ["invoiceInfo.buyerIdentifier: required for company invoices"], einvoiceToken)
    })

    it("have no effect without e-invoice: invoiceInfo is not checked", async () => {
      const res = await post("/checkout", checkoutBody({ invoiceInfo: { invoiceType: "company", buyerIdentifier: "12345678" } }))
      expect(res.json.code).toBe("S0000")
    })
  })

  describe("recurring fields", () => {
    it("numberOfPeriods >= 2 and paymentInterval 1 to 12", async () => {
      await expectV0001("/checkout-subscription", checkoutBody({ numberOfPeriods: 1 }), ["numberOfPeriods: must be an integer >= 2"])
      expect((await post("/checkout-subscription", checkoutBody({ numberOfPeriods: 2 }))).json.code).toBe("S0000")
      await expectV0001("/checkout-schedule", checkoutBody({ paymentInterval: 0 }), ["paymentInterval: must be an integer from 1 to 12"])
      await expectV0001("/checkout-schedule", checkoutBody({ paymentInterval: 13 }), ["paymentInterval: must be an integer from 1 to 12"])
      expect((await post("/checkout-schedule", checkoutBody({ paymentInterval: 12 }))).json.code).toBe("S0000")
    })

    it("scheduled checkout: startDate from today to before the same day 12 months ahead", async () => {
      await expectV0001("/checkout-schedule", checkoutBody({ startDate: "2025/06/09" }), ["START_DATE_MUST_GREATER_THAN_TODAY"])
      for (const startDate of ["2025/06/10", "2026/06/09", null]) {
        expect((await post("/checkout-schedule", checkoutBody({ startDate }))).json.code).toBe("S0000")
      }
      await expectV0001("/checkout-schedule", checkoutBody({ startDate: "2026/06/10" }), ["START_DATE_MUST_LESS_THAN_12_MONTHS"])
      await expectV0001("/checkout-schedule", checkoutBody({ startDate: "2025/6/11" }), ["startDate: must be a date in the form yyyy/MM/dd"])
      await expectV0001("/checkout-schedule", checkoutBody({ startDate: "2025/02/30" }), ["startDate: must be a date in the form yyyy/MM/dd"])
    })

    it("token subscription: startDate strictly after today", async () => {
      const body = (startDate: string) => checkoutBody({ token: "tok_unknown", startDate })
      await expectV0001("/token/subscriptions", body("2025/06/10"), ["START_DATE_MUST_GREATER_THAN_TODAY"])
      await expectV0001("/token/subscriptions", body("2026/06/10"), ["START_DATE_MUST_LESS_THAN_12_MONTHS"])
      // a valid date gets past the rules to the (unknown) token
      await expectV0001("/token/subscriptions", body("2025/06/11"), ["token: unknown card token"])
    })
  })

  describe("token charges", () => {
    it("require token, amount, orderId and productDetails", async () => {
      await expectV0001("/token/transactions", { merchantId: "demo-shop" }, ["token: required", "amount: required", "orderId: required", "productDetails: required"])
      await expectV0001("/token/subscriptions", { merchantId: "demo-shop" }, ["token: required", "amount: required"])
    })

    it("require a valid mobile number when the domain requires one", async () => {
      const m = await sb.createMerchant({ merchantId: "mobile-shop", mobileRequired: true })
      const body = (userPhone?: string) => checkoutBody({ merchantId: "mobile-shop", token: "tok_x", userPhone })
      await expectV0001("/token/transactions", body(undefined), ["userPhone: a valid mobile phone number is required for this domain"], m.token)
      await expectV0001("/token/transactions", body("12345"), ["userPhone: a valid mobile phone number is required for this domain"], m.token)
      const rules = await expectV0001("/token/transactions", body("0912345678"), ["token: unknown card token"], m.token)
      expect(rules).toHaveLength(1)
    })
  })

  it("card binding requires only merchantId and the two redirect keys", async () => {
    await expectV0001("/checkout-token", { merchantId: "demo-shop" }, ["successUrl: required", "failureUrl: required"])
    await expectV0001("/checkout-token", { merchantId: "demo-shop", successUrl: null, failureUrl: null, payerEmail: "x" }, ["payerEmail: must be an email address"])
    const ok = await post("/checkout-token", { merchantId: "demo-shop", successUrl: null, failureUrl: null })
    expect(ok.json.code).toBe("S0000")
    expect(Object.keys(ok.json.data!)).toEqual(["id"])
  })
})
