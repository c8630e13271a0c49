import { freshSessionData, parseStorefrontData, readSessionData, remitInfoSchema } from "../hosted-checkout-session-data"

describe("storefront session data", () => {
  it("accepts the whitelisted shape", () => {
    expect(parseStorefrontData({ session_id: "payses_1", methods: ["cvs"], return_path: "/thanks" })).toEqual({
      session_id: "payses_1",
      methods: ["cvs"],
      return_path: "/thanks",
    })
  })

  it.each([
    [{ session_id: "payses_1", price: 1 }, "price"],
    [{ session_id: "payses_1", transactionIdentifier: "x" }, "transactionIdentifier"],
    [{ session_id: "payses_1", methods: ["bitcoin"] }, "methods"],
    [{ session_id: "payses_1", return_path: "https://evil.test/" }, "return_path"],
    [{ session_id: "payses_1", return_path: "//evil.test/" }, "return_path"],
    [{ session_id: "payses_1", return_path: "/ok?x=1" }, "return_path"],
    [{ session_id: "payses_1", invoice: { invoiceType: "company", buyerIdentifier: "12345678" } }, "invoice"],
    [{}, "session_id"],
  ])("refuses anything else with a clear error (%#)", (data, field) => {
    expect(() => parseStorefrontData(data)).toThrow(field)
  })

  it("reads the provider's own fields back and refuses data without a transaction", () => {
    expect(readSessionData({ session_id: "payses_1", transactionId: "a", transactionHid: "P1", amount: 10 }).amount).toBe(10)
    expect(() => readSessionData({ session_id: "payses_1" })).toThrow(/no hosted-checkout transaction/)
  })

  it("requires all six remittance fields and an 8-14 character account", () => {
    const remit = { bankCode: "004", bankName: "Bank", branchCode: "0037", branchName: "Xinyi", account: "12345678", accountName: "Lin" }
    expect(remitInfoSchema.safeParse(remit).success).toBe(true)
    expect(remitInfoSchema.safeParse({ ...remit, account: "1234567" }).success).toBe(false)
    expect(remitInfoSchema.safeParse({ ...remit, account: "123456789012345" }).success).toBe(false)
    expect(remitInfoSchema.safeParse({ ...remit, bankName: undefined }).success).toBe(false)
  })

  describe("given back by Medusa when it recreates a session", () => {
    // What a compensation passes to initiatePayment: the old session's whole data.
    const written = {
      session_id: "payses_2",
      methods: ["cvs"],
      transactionId: "tx_old",
      transactionHid: "P_OLD",
      checkoutUrl: "https://pay.test/checkout/tx_old",
      expiresAt: "2026-11-23T00:00:00.000Z",
      amount: 500,
      status: "charged",
      paymentMethod: "card",
      paidAt: "2026-11-23T00:00:00.000Z",
      refundAmount: 500,
      refund: { id: "ref_1", amount: 500, status: "refunded", at: "2026-11-23T00:00:00.000Z" },
      attestation: { status: "charged", at: "2026-11-23T00:00:00.000Z", mac: "00" },
    }

    it("is accepted, keeping only what a storefront may choose", () => {
      expect(parseStorefrontData(written)).toEqual({ session_id: "payses_2", methods: ["cvs"] })
    })

    it("still refuses a wrong storefront field next to written ones", () => {
      expect(() => parseStorefrontData({ ...written, methods: ["bitcoin"] })).toThrow(/methods/)
    })

    it("is cleared by a new checkout's data, key by key", () => {
      const merged = JSON.parse(JSON.stringify({ ...written, ...freshSessionData, session_id: "payses_2", transactionId: "tx_new" }))
      expect(merged).toEqual({ session_id: "payses_2", methods: ["cvs"], transactionId: "tx_new" })
    })
  })
})
