import { embeddedCardFailureOf, embeddedCardSessionOf } from "../src/core/embedded-card-session.js"
import { hostedSessionOf } from "../src/core/hosted-session.js"
import { checkedReturnPath } from "../src/core/return-path.js"

const cardData = {
  session_id: "payses_c",
  paymentIntentId: "pi_1",
  clientSecret: "pi_1_secret_x",
  publishableKey: "pk_test_1",
  sdkUrl: "https://js.example.test/v1/twpay.js",
  sdkIntegrity: "sha384-abc",
  returnUrl: "https://shop.example.test/checkout/card/return",
  amount: 1360,
}

describe("hostedSessionOf", () => {
  it("reads the latest hosted-checkout session's public facts, of the provider asked for", () => {
    const sessions = [
      { id: "payses_old", provider_id: "pp_hosted-checkout_hosted-checkout", status: "canceled", data: { checkoutUrl: "https://pay.example.test/old" } },
      { id: "payses_card", provider_id: "pp_embedded-card_embedded-card", status: "pending", data: cardData },
      {
        id: "payses_new",
        provider_id: "pp_hosted-checkout_hosted-checkout",
        status: "requires_more",
        data: { checkoutUrl: "https://pay.example.test/new", expiresAt: "2026-11-26T08:05:00Z", status: "initiated", amount: 1360 },
      },
    ]
    expect(hostedSessionOf(sessions)).toEqual({
      id: "payses_new",
      providerId: "pp_hosted-checkout_hosted-checkout",
      status: "requires_more",
      checkoutUrl: "https://pay.example.test/new",
      expiresAt: "2026-11-26T08:05:00Z",
      transactionStatus: "initiated",
    })
    expect(hostedSessionOf(sessions, "pp_hosted-checkout_other")).toBeUndefined()
    expect(hostedSessionOf(undefined)).toBeUndefined()
  })

  it("counts a field of another shape as absent, and keeps a saved card's public facts", () => {
    const session = { id: "payses_1", provider_id: "pp_hosted-checkout_x", status: "pending", data: { checkoutUrl: "javascript:alert(1)", savedCard: { id: "twcard_1" }, errorCode: 5 } }
    expect(hostedSessionOf([session])).toEqual({ id: "payses_1", providerId: "pp_hosted-checkout_x", status: "pending", savedCard: { id: "twcard_1", last4: null } })
  })
})

describe("embeddedCardSessionOf", () => {
  it("gives what the card SDK mounts with, or nothing when a field is missing", () => {
    const session = { id: "payses_c", provider_id: "pp_embedded-card_embedded-card", status: "pending", data: cardData }
    expect(embeddedCardSessionOf([session])).toEqual({
      id: "payses_c",
      providerId: "pp_embedded-card_embedded-card",
      status: "pending",
      paymentIntentId: "pi_1",
      clientSecret: "pi_1_secret_x",
      publishableKey: "pk_test_1",
      sdkUrl: cardData.sdkUrl,
      sdkIntegrity: "sha384-abc",
      returnUrl: cardData.returnUrl,
      amount: 1360,
    })
    expect(embeddedCardSessionOf([{ ...session, data: { ...cardData, clientSecret: undefined } }])).toBeUndefined()
  })

  it("reads why the last attempt failed: the shopper code and the service's", () => {
    const failed = { id: "payses_c", provider_id: "pp_embedded-card_embedded-card", status: "error", data: { ...cardData, lastPaymentError: "CARD_DECLINED", errorCode: "card_declined" } }
    expect(embeddedCardFailureOf([failed])).toEqual({ errorCode: "card_declined", serviceCode: "CARD_DECLINED" })
    expect(embeddedCardFailureOf([{ ...failed, data: cardData }])).toBeUndefined()
  })
})

describe("checkedReturnPath", () => {
  it("takes a path on the storefront, refuses anything that could leave it", () => {
    expect(checkedReturnPath("/checkout/hosted/return")).toBe("/checkout/hosted/return")
    expect(checkedReturnPath(undefined)).toBeUndefined()
    for (const path of ["//evil.example", "https://evil.example/", "/a?b=1", "/a#b", "/\\evil", "checkout", `/${"a".repeat(200)}`]) {
      expect(() => checkedReturnPath(path)).toThrow(expect.objectContaining({ code: "payment_data_invalid" }))
    }
  })
})
