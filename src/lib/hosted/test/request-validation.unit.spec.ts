import { InvalidRequestError } from "../../http"
import { CARD_TOKEN, CHECKOUT_INPUT, ITEM, mockApi, ok, SUB_HID, TOKEN_INPUT, TX_HID, TX_ID } from "./mock-api"

/**
 * Every local rule (spec 2.3, 4, 8): a broken body is refused with
 * `InvalidRequestError` `CLIENT_VALIDATION` before anything reaches the network.
 * The clock is 2026-11-21T16:30Z, i.e. 2026/11/22 in Taipei.
 */

type Api = ReturnType<typeof mockApi>
type Expected = { variant?: string; message?: RegExp | string }

async function expectRejected(api: Api, send: () => Promise<unknown>, expected: Expected = {}) {
  const error = await send().catch((e: unknown) => e)
  expect(error).toBeInstanceOf(InvalidRequestError)
  const invalid = error as InvalidRequestError
  expect(invalid.code).toBe("CLIENT_VALIDATION")
  expect(invalid.status).toBeUndefined()
  expect(invalid.variant).toBe(expected.variant)
  if (expected.message) expect(invalid.message).toMatch(expected.message)
  expect(api.requests).toHaveLength(0)
  return invalid
}

const withItem = (overrides: Partial<typeof ITEM>) => ({ ...CHECKOUT_INPUT, productDetails: [{ ...ITEM, ...overrides }] })
const omit = <T extends object>(value: T, key: keyof T) => {
  const copy = { ...value }
  delete copy[key]
  return copy
}

describe("request validation before sending", () => {
  let api: Api
  beforeEach(() => {
    api = mockApi()
  })
  afterEach(async () => {
    await api.close()
  })

  describe("checkout bodies", () => {
    beforeEach(() => api.catchAll())

    it.each<[string, Record<string, unknown>, Expected]>([
      ["successUrl key missing", omit(CHECKOUT_INPUT, "successUrl"), { message: /successUrl: is required \(send null/ }],
      ["failureUrl key missing", omit(CHECKOUT_INPUT, "failureUrl"), { message: /failureUrl: is required/ }],
      ["orderId missing", omit(CHECKOUT_INPUT, "orderId"), { message: /orderId/ }],
      ["amount missing", omit(CHECKOUT_INPUT, "amount"), { message: /amount/ }],
      ["productDetails missing", omit(CHECKOUT_INPUT, "productDetails"), { message: /productDetails/ }],
      ["relative successUrl", { ...CHECKOUT_INPUT, successUrl: "/checkout/done" }, { message: /successUrl: must be an absolute/ }],
      ["successUrl without //", { ...CHECKOUT_INPUT, successUrl: "https:store.example.com/x" }, { message: /successUrl/ }],
      ["non-http successUrl", { ...CHECKOUT_INPUT, successUrl: "ftp://store.example.com/x" }, { message: /successUrl/ }],
      [
        "failureUrl with a query string",
        { ...CHECKOUT_INPUT, failureUrl: "https://store.example.com/failed?cart=1" },
        { message: /failureUrl: must not carry a query string or fragment.*payment_error/ },
      ],
      [
        "failureUrl with a fragment",
        { ...CHECKOUT_INPUT, failureUrl: "https://store.example.com/failed#top" },
        { message: /failureUrl: must not carry a query string or fragment/ },
      ],
      ["amount 0", { ...withItem({ quantity: 1, unitPrice: 0 }), amount: 0 }, { message: /amount/ }],
      ["fractional amount", { ...withItem({ quantity: 1, unitPrice: 1 }), amount: 1.5 }, { message: /amount/ }],
      ["amount as a string", { ...CHECKOUT_INPUT, amount: "1200" }, { message: /amount/ }],
      ["quantity 0", { ...withItem({ quantity: 0 }) }, { message: /productDetails\.0\.quantity/ }],
      ["fractional quantity", { ...withItem({ quantity: 1.5, unitPrice: 800 }) }, { message: /productDetails\.0\.quantity/ }],
      ["fractional unitPrice", { ...withItem({ quantity: 2, unitPrice: 600.5 }) }, { message: /productDetails\.0\.unitPrice/ }],
      ["item without unit", { ...CHECKOUT_INPUT, productDetails: [omit(ITEM, "unit")] }, { message: /productDetails\.0\.unit/ }],
      ["empty productDetails", { ...CHECKOUT_INPUT, productDetails: [] }, { variant: "PRODUCT_DETAILS_REQUIRED" }],
      [
        "items not adding up to amount",
        { ...CHECKOUT_INPUT, amount: 1000 },
        { variant: "PRODUCT_AMOUNT_NOT_MATCH", message: /sum of quantity x unitPrice must equal amount/ },
      ],
      ["currency USD", { ...CHECKOUT_INPUT, currency: "USD" }, { message: /currency: only TWD/ }],
      ["lower-case currency", { ...CHECKOUT_INPUT, currency: "twd" }, { message: /currency/ }],
      ["unknown payment method", { ...CHECKOUT_INPUT, allowedPaymentMethods: ["card", "applePay"] }, { message: /allowedPaymentMethods\.1/ }],
      ["invalid userEmail", { ...CHECKOUT_INPUT, userEmail: "not-an-email" }, { message: /userEmail/ }],
      ["expectedPayoutDate not a date", { ...CHECKOUT_INPUT, expectedPayoutDate: "2026/13/01" }, { message: /expectedPayoutDate/ }],
      ["expectedPayoutDate with dashes", { ...CHECKOUT_INPUT, expectedPayoutDate: "2026-12-01" }, { message: /expectedPayoutDate/ }],
      ["a misspelt key", { ...CHECKOUT_INPUT, sucessUrl: "https://store.example.com/x" }, { message: /sucessUrl/ }],
    ])("checkouts.create refuses %s", async (_what, body, expected) => {
      await expectRejected(api, () => api.client.checkouts.create(body as never), expected)
    })

    it("refuses a different merchantId without echoing it", async () => {
      const error = await expectRejected(api, () => api.client.checkouts.create({ ...CHECKOUT_INPUT, merchantId: "other-shop" }))
      expect(error.field).toBe("merchantId")
      expect(error.message).not.toContain("other-shop")
    })

    it("checkouts.createSubscription refuses numberOfPeriods below 2", async () => {
      await expectRejected(api, () => api.client.checkouts.createSubscription({ ...CHECKOUT_INPUT, numberOfPeriods: 1 }), {
        message: /numberOfPeriods/,
      })
    })

    it("checkouts.createSubscription refuses fields it does not take (allowedPaymentMethods)", async () => {
      const body = { ...CHECKOUT_INPUT, allowedPaymentMethods: ["cvs"] }
      await expectRejected(api, () => api.client.checkouts.createSubscription(body as never), { message: /allowedPaymentMethods/ })
    })

    it.each([0, 13, 1.5])("checkouts.createSchedule refuses paymentInterval %p", async (paymentInterval) => {
      await expectRejected(api, () => api.client.checkouts.createSchedule({ ...CHECKOUT_INPUT, paymentInterval }), {
        message: /paymentInterval/,
      })
    })

    it.each<[string, Expected]>([
      ["2026/11/21", { variant: "START_DATE_MUST_GREATER_THAN_TODAY", message: /startDate: must not be before today/ }],
      ["2027/11/22", { variant: "START_DATE_MUST_LESS_THAN_12_MONTHS", message: /before 2027\/11\/22/ }],
      ["2028/01/01", { variant: "START_DATE_MUST_LESS_THAN_12_MONTHS" }],
      ["2026/02/30", { message: /startDate: must be a real date/ }],
      ["2026-12-01", { message: /startDate/ }],
    ])("checkouts.createSchedule refuses startDate %s", async (startDate, expected) => {
      await expectRejected(api, () => api.client.checkouts.createSchedule({ ...CHECKOUT_INPUT, startDate }), expected)
    })

    it.each<[string, Record<string, unknown>, Expected]>([
      ["successUrl key missing", { failureUrl: null }, { message: /successUrl: is required/ }],
      ["failureUrl with a query", { successUrl: null, failureUrl: "https://s.example.com/f?x=1" }, { message: /failureUrl/ }],
      ["invalid payerEmail", { successUrl: null, failureUrl: null, payerEmail: "buyer@" }, { message: /payerEmail/ }],
      ["an amount (not a binding field)", { successUrl: null, failureUrl: null, amount: 1 }, { message: /amount/ }],
    ])("checkouts.createCardBinding refuses %s", async (_what, body, expected) => {
      await expectRejected(api, () => api.client.checkouts.createCardBinding(body as never), expected)
    })
  })

  describe("dates that are accepted (Taipei calendar)", () => {
    it.each(["2026/11/22", "2027/11/21"])("checkouts.createSchedule sends startDate %s (today .. 12 months - 1 day)", async (startDate) => {
      api.reply("POST", "/checkout-schedule", ok({ id: TX_ID, subscriptionHid: SUB_HID }))
      await api.client.checkouts.createSchedule({ ...CHECKOUT_INPUT, startDate })
      expect(api.requests[0].body).toMatchObject({ startDate })
    })

    it("tokenSubscriptions.create sends tomorrow (Taipei) as startDate", async () => {
      api.reply("POST", "/token/subscriptions", ok({ subscriptionId: SUB_HID }))
      await api.client.tokenSubscriptions.create({ ...TOKEN_INPUT, startDate: "2026/11/23" })
      expect(api.requests[0].body).toMatchObject({ startDate: "2026/11/23" })
    })

    it("a discount line with a negative unitPrice still has to total the amount", async () => {
      api.reply("POST", "/checkout", ok({ id: TX_ID, transactionHid: TX_HID }))
      const discount = { productionCode: "DISC", description: "member discount", quantity: 1, unit: "each", unitPrice: -200 }
      await api.client.checkouts.create({ ...CHECKOUT_INPUT, amount: 1000, productDetails: [ITEM, discount] })
      expect(api.requests).toHaveLength(1)
    })
  })

  describe("token endpoints", () => {
    beforeEach(() => api.catchAll())

    it.each<[string, Record<string, unknown>, Expected]>([
      ["token missing", omit(TOKEN_INPUT, "token"), { message: /token/ }],
      ["empty token", { ...TOKEN_INPUT, token: "" }, { message: /token/ }],
      ["items not adding up", { ...TOKEN_INPUT, amount: 1 }, { variant: "PRODUCT_AMOUNT_NOT_MATCH" }],
      ["a redirect address (not a token-charge field)", { ...TOKEN_INPUT, successUrl: null }, { message: /successUrl/ }],
      ["expectedPayoutDate not a date", { ...TOKEN_INPUT, expectedPayoutDate: "2026/11/31" }, { message: /expectedPayoutDate/ }],
    ])("tokenCharges.create refuses %s", async (_what, body, expected) => {
      const error = await expectRejected(api, () => api.client.tokenCharges.create(body as never), expected)
      expect(error.message).not.toContain(CARD_TOKEN)
    })

    it.each<[string, Record<string, unknown>, Expected]>([
      ["startDate today (Taipei)", { startDate: "2026/11/22" }, { variant: "START_DATE_MUST_GREATER_THAN_TODAY", message: /later than today/ }],
      ["startDate yesterday", { startDate: "2026/11/21" }, { variant: "START_DATE_MUST_GREATER_THAN_TODAY" }],
      ["startDate 12 months ahead", { startDate: "2027/11/22" }, { variant: "START_DATE_MUST_LESS_THAN_12_MONTHS" }],
      ["numberOfPeriods 1", { numberOfPeriods: 1 }, { message: /numberOfPeriods/ }],
      ["paymentInterval 13", { paymentInterval: 13 }, { message: /paymentInterval/ }],
      ["empty token", { token: "" }, { message: /token/ }],
    ])("tokenSubscriptions.create refuses %s", async (_what, change, expected) => {
      await expectRejected(api, () => api.client.tokenSubscriptions.create({ ...TOKEN_INPUT, ...change } as never), expected)
    })
  })

  describe("e-invoice", () => {
    let einvoiceApi: Api
    beforeEach(() => {
      einvoiceApi = mockApi({ einvoice: true })
      einvoiceApi.catchAll()
    })
    afterEach(async () => {
      await einvoiceApi.close()
    })

    it.each<[string, Record<string, unknown>]>([
      ["neither name nor email", {}],
      ["no email", { userName: "Lin Mei-Ling" }],
      ["no name", { userEmail: "mei@example.com" }],
      ["an empty name", { userName: "", userEmail: "mei@example.com" }],
    ])("with e-invoicing, a checkout with %s is refused (USER_NAME_AND_EMAIL_REQUIRED)", async (_what, contact) => {
      await expectRejected(einvoiceApi, () => einvoiceApi.client.checkouts.create({ ...CHECKOUT_INPUT, ...contact }), {
        variant: "USER_NAME_AND_EMAIL_REQUIRED",
      })
    })

    it("with e-invoicing, a token charge without contact is refused too", async () => {
      await expectRejected(einvoiceApi, () => einvoiceApi.client.tokenCharges.create(TOKEN_INPUT), {
        variant: "USER_NAME_AND_EMAIL_REQUIRED",
      })
    })

    it("without e-invoicing the same checkout is sent", async () => {
      api.reply("POST", "/checkout", ok({ id: TX_ID, transactionHid: TX_HID }))
      await api.client.checkouts.create(CHECKOUT_INPUT)
      expect(api.requests).toHaveLength(1)
    })
  })

  describe("invoiceInfo", () => {
    it.each<[string, Record<string, unknown>, Expected]>([
      ["an unknown invoiceType", { invoiceType: "paper" }, { message: /invoiceInfo\.invoiceType/ }],
      ["a cloud invoice without carrierType", { invoiceType: "cloud" }, { message: /invoiceInfo\.carrierType: is required/ }],
      ["an unknown carrierType", { invoiceType: "cloud", carrierType: "XX0001" }, { message: /invoiceInfo\.carrierType/ }],
      ["a mobile barcode of 6 characters", { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC12" }, { variant: "INVALID_CARRIER_ID" }],
      ["a lower-case mobile barcode", { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/abc1234" }, { variant: "INVALID_CARRIER_ID" }],
      ["a mobile barcode without /", { invoiceType: "cloud", carrierType: "3J0002", carrierId: "ABC12345" }, { variant: "INVALID_CARRIER_ID" }],
      ["a mobile barcode missing", { invoiceType: "cloud", carrierType: "3J0002" }, { variant: "INVALID_CARRIER_ID" }],
      ["a certificate with 13 digits", { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB1234567890123" }, { variant: "INVALID_CARRIER_ID" }],
      ["a lower-case certificate", { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "ab12345678901234" }, { variant: "INVALID_CARRIER_ID" }],
      ["a company invoice without tax id", { invoiceType: "company" }, { variant: "INVALID_TAX_ID_NUMBER", message: /buyerIdentifier: is required/ }],
      ["a tax id with a bad check digit", { invoiceType: "company", buyerIdentifier: "22099132" }, { variant: "INVALID_TAX_ID_NUMBER" }],
      ["a 7-digit tax id", { invoiceType: "company", buyerIdentifier: "2209913" }, { variant: "INVALID_TAX_ID_NUMBER" }],
      ["an invalid invoice email", { invoiceType: "cloud", carrierType: "", email: "nope" }, { message: /invoiceInfo\.email/ }],
    ])("refuses %s", async (_what, invoiceInfo, expected) => {
      api.catchAll()
      await expectRejected(api, () => api.client.checkouts.create({ ...CHECKOUT_INPUT, invoiceInfo } as never), expected)
    })

    it.each<[string, Record<string, unknown>]>([
      ["member carrier", { invoiceType: "cloud", carrierType: "" }],
      ["mobile barcode", { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/AB+1.-Z" }],
      ["natural-person certificate", { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" }],
      ["company", { invoiceType: "company", buyerIdentifier: "22099131", buyerName: "TSMC", email: "ap@example.com" }],
      ["company, 7th-digit-7 rule", { invoiceType: "company", buyerIdentifier: "10458574" }],
    ])("sends a valid %s invoice", async (_what, invoiceInfo) => {
      api.reply("POST", "/checkout", ok({ id: TX_ID, transactionHid: TX_HID }))
      await api.client.checkouts.create({ ...CHECKOUT_INPUT, invoiceInfo } as never)
      expect(api.requests[0].body).toMatchObject({ invoiceInfo })
    })
  })

  describe("refund and cancel bodies", () => {
    beforeEach(() => api.catchAll())
    const remit = {
      bankCode: "812",
      bankName: "Taishin",
      branchCode: "0012",
      branchName: "Jianguo",
      account: "20881000123456",
      accountName: "Lin Mei-Ling",
    }

    it.each<[string, Record<string, unknown>, Expected]>([
      ["amount 0", { amount: 0 }, { message: /amount/ }],
      ["a fractional amount", { amount: 10.5 }, { message: /amount/ }],
      ["remitInfo without branchName", { remitInfo: omit(remit, "branchName") }, { message: /remitInfo\.branchName/ }],
      ["remitInfo with an empty bankCode", { remitInfo: { ...remit, bankCode: "" } }, { message: /remitInfo\.bankCode/ }],
      ["an account of 7 characters", { remitInfo: { ...remit, account: "1234567" } }, { message: /remitInfo\.account/ }],
      ["an account of 15 characters", { remitInfo: { ...remit, account: "123456789012345" } }, { message: /remitInfo\.account/ }],
      ["items not totalling the refund amount", { amount: 500, productDetails: [ITEM] }, { variant: "PRODUCT_AMOUNT_NOT_MATCH" }],
      ["empty productDetails", { productDetails: [] }, { variant: "PRODUCT_DETAILS_REQUIRED" }],
    ])("refunds.create refuses %s", async (_what, body, expected) => {
      await expectRejected(api, () => api.client.refunds.create(TX_HID, body as never), expected)
    })

    it("refunds.create refuses a different merchantId", async () => {
      const error = await expectRejected(api, () => api.client.refunds.create(TX_HID, { merchantId: "other-shop" }))
      expect(error.field).toBe("merchantId")
    })

    it("subscriptions.cancel refuses a non-string reason", async () => {
      await expectRejected(api, () => api.client.subscriptions.cancel(SUB_HID, { reason: 42 } as never), { message: /reason/ })
    })
  })
})
