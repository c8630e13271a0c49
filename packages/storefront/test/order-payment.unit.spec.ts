import { formatTaipeiTime, orderPaymentOf } from "../src/core/order-payment.js"
import { failureAddressCode } from "../src/core/payment-return.js"
import { isTwPaymentProvider } from "../src/core/provider-ids.js"
import { subscriptionPlanIdOf } from "../src/core/subscription-checkout.js"

const HOSTED = "pp_hosted-checkout_hosted-checkout"
const CARD = "pp_embedded-card_embedded-card"
const cvs = { cvsName: "7-ELEVEN", code: "GW141126000123", expiredAt: "2026-11-29T15:59:59Z" }
const atm = { bankName: "Sandbox Bank", bankCode: "812", account: "9103522175887271", expiredAt: "2026-11-27T15:59:59Z" }

const orderWith = (payment_status: string, ...sessions: Array<{ provider_id: string; data?: Record<string, unknown>; amount?: number }>) => ({
  status: "pending",
  payment_status,
  payment_collections: [{ payment_sessions: sessions.map((s, i) => ({ id: `payses_${i}`, status: "authorized", amount: 1000, ...s })) }],
})

describe("orderPaymentOf", () => {
  it("a cvs code awaiting payment: the code and its deadline", () => {
    expect(orderPaymentOf(orderWith("not_paid", { provider_id: HOSTED, data: { paymentMethod: "cvs", paymentInfo: cvs } }))).toEqual({
      state: "awaiting",
      providerId: HOSTED,
      method: "cvs",
      amount: 1000,
      instructions: { kind: "cvs", storeName: "7-ELEVEN", code: cvs.code, payBefore: cvs.expiredAt },
    })
  })

  it("a virtual account awaiting payment", () => {
    expect(orderPaymentOf(orderWith("awaiting", { provider_id: HOSTED, data: { paymentMethod: "atm", paymentInfo: atm } }))?.instructions).toEqual({
      kind: "atm",
      bankName: "Sandbox Bank",
      bankCode: "812",
      account: atm.account,
      payBefore: atm.expiredAt,
    })
  })

  it("a paid code shows no instructions any more", () => {
    expect(orderPaymentOf(orderWith("captured", { provider_id: HOSTED, data: { paymentMethod: "cvs", paymentInfo: cvs } }))).toEqual({
      state: "paid",
      providerId: HOSTED,
      method: "cvs",
      amount: 1000,
    })
  })

  it.each([
    ["captured", "paid"],
    ["partially_captured", "paid"],
    ["authorized", "authorized"],
    ["refunded", "refunded"],
    ["partially_refunded", "refunded"],
    ["canceled", "canceled"],
    ["not_paid", "awaiting"],
  ])("payment status %s reads %s", (status, state) => {
    expect(orderPaymentOf(orderWith(status, { provider_id: CARD }))).toEqual({ state, providerId: CARD, method: "card", amount: 1000 })
  })

  it("a canceled order is canceled whatever its payment status", () => {
    expect(orderPaymentOf({ ...orderWith("captured", { provider_id: CARD }), status: "canceled" })?.state).toBe("canceled")
  })

  it("the latest session of the plugin counts; an order paid by another provider has none", () => {
    const order = orderWith("captured", { provider_id: CARD }, { provider_id: HOSTED, data: { paymentMethod: "linePay", paymentInfo: "LP123" } }, { provider_id: "pp_system_default" })
    expect(orderPaymentOf(order)).toMatchObject({ providerId: HOSTED, method: "linePay" })
    expect(orderPaymentOf(orderWith("captured", { provider_id: "pp_system_default" }))).toBeUndefined()
    expect(orderPaymentOf({})).toBeUndefined()
  })
})

describe("formatTaipeiTime", () => {
  it("shows Taipei's wall clock (+08:00) the same everywhere", () => {
    expect(formatTaipeiTime("2026-11-29T15:59:59Z")).toBe("2026/11/29 23:59")
    expect(formatTaipeiTime("2026-12-31T16:05:00Z")).toBe("2027/01/01 00:05")
    expect(formatTaipeiTime("2026-11-30T09:00:00+08:00")).toBe("2026/11/30 09:00")
    expect(formatTaipeiTime("not a date")).toBe("not a date")
  })
})

describe("provider ids and subscription carts", () => {
  it("isTwPaymentProvider: either provider of the plugin, under any id", () => {
    expect([HOSTED, CARD, "pp_hosted-checkout_tw", "pp_system_default", "pp_stripe_stripe"].map(isTwPaymentProvider)).toEqual([true, true, true, false, false])
  })

  it("subscriptionPlanIdOf reads the plan the storefront noted on the cart", () => {
    expect(subscriptionPlanIdOf({ metadata: { tw_subscription_plan_id: "twplan_1" } })).toBe("twplan_1")
    expect(subscriptionPlanIdOf({ metadata: { tw_subscription_plan_id: 7 } })).toBeUndefined()
    expect(subscriptionPlanIdOf({ metadata: null })).toBeUndefined()
    expect(subscriptionPlanIdOf({})).toBeUndefined()
  })
})

describe("failureAddressCode", () => {
  it("names the card declines and the expired page of the failure address, nothing else", () => {
    expect(["T0001", "t0003", " T0005 ", "V0002"].map(failureAddressCode)).toEqual(["card_declined_t0001", "card_declined_t0003", "card_declined_t0005", "payment_page_expired"])
    expect(["T0006", "T00031", "card_declined", "", null, undefined].map(failureAddressCode)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined])
  })
})
