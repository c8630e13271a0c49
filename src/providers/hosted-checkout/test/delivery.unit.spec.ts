import { mockLogger } from "../../core/test/mock-logger"
import { isSubscriptionPeriod } from "../../../workflows/payments/decisions/payment-decision"
import { HostedCheckoutApi } from "../hosted-checkout-api"
import { parseHostedCheckoutOptions } from "../options"

/** What a hosted notification hands the payment pipeline: the transaction to read, and a subscription's session as a hint. */

const logger = mockLogger()
const api = new HostedCheckoutApi(
  parseHostedCheckoutOptions({
    apiToken: "tok_test_7Hq2Zp9LmX4vR8sK",
    merchantId: "tea-house",
    apiBaseUrl: "https://api.pay.test/api",
    checkoutHost: "https://tea-house.pay.test",
    storefrontUrl: "https://shop.test",
  }),
  logger
)
const TX = "0123456789abcdefghijABCDEFG"
const charge = (changes: Record<string, unknown>) => ({
  data: {},
  rawData: Buffer.from(JSON.stringify({ purpose: "charge", id: TX, transactionId: TX, transactionHid: "P2026020500000002", merchantId: "tea-house", status: "charged", ...changes })),
  headers: {},
})

describe("hosted readDelivery", () => {
  it("a one-time payment's notification names only the transaction", () => {
    expect(api.readDelivery(charge({ action: "onetime", orderId: "payses_1", customId: "payses_1" })).delivery).toEqual({ key: `${TX}:charged`, serviceId: TX })
  })

  it("a subscription's charge also names the checkout's session: customId, or a token payment's orderId", () => {
    expect(api.readDelivery(charge({ action: "subscription", orderId: "payses_1", customId: "payses_1", subscriptionId: "S2026010500000001", period: 2 })).delivery).toEqual({
      key: `${TX}:charged`,
      serviceId: TX,
      subscriptionSession: "payses_1",
    })
    expect(api.readDelivery(charge({ action: "subscription", orderId: "payses_2" })).delivery?.subscriptionSession).toBe("payses_2")
    expect(api.readDelivery(charge({ action: "subscription", customId: "cart_1" })).delivery?.subscriptionSession).toBeUndefined()
  })

  it("one parse also says why a charge was refused (forged: malformed, or not this merchant's); a notification left to others is not refused", () => {
    expect(api.readDelivery({ data: {}, rawData: Buffer.from("{not json"), headers: {} })).toEqual({ refusal: "forged" })
    expect(api.readDelivery(charge({ action: "onetime", merchantId: "another-shop" }))).toEqual({ refusal: "forged" })
    expect(api.refusalOf(undefined)).toBe("forged")
    expect(api.refusalOf(api.readNotification(charge({ action: "onetime" })))).toBeUndefined()
  })
})

describe("isSubscriptionPeriod: what the pipeline leaves to the subscription workflow", () => {
  it("only a subscription's session, and only another transaction than its page", () => {
    expect(isSubscriptionPeriod({ transactionId: "tx_0", subscription: { checkoutId: "tx_0" } }, "tx_2")).toBe(true)
    expect(isSubscriptionPeriod({ transactionId: "tx_0", subscription: { checkoutId: "tx_0" } }, "tx_0")).toBe(false)
    expect(isSubscriptionPeriod({ transactionId: "tx_0" }, "tx_2")).toBe(false)
    // A saved card's subscription before its first charge has no page: the saved-card rules apply.
    expect(isSubscriptionPeriod({ savedCard: { id: "twcard_1" }, subscription: { checkoutId: "" } }, "tx_2")).toBe(false)
  })
})
