import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import { PAYMENT_INTENT_STATUSES } from "../../../lib/embedded"
import { parseEmbeddedCardOptions } from "../options"
import { EmbeddedCardProviderService } from "../service"
import { freshSessionData, parseStorefrontData } from "../embedded-card-session-data"
import { FINAL, SESSION_STATUS, WEBHOOK_ACTION } from "../embedded-card-status-map"

const valid = {
  secretKey: "sk_" + "a".repeat(32),
  publishableKey: "pk_" + "b".repeat(24),
  webhookSecrets: "whsec_" + "c".repeat(48),
  apiBaseUrl: "https://embed.pay.test",
  sdkUrl: "https://js.pay.test/v1.4.0/twpay.js",
  storefrontUrl: "https://shop.test",
}

describe("embedded-card status mapping", () => {
  it.each([
    ["created", PaymentSessionStatus.REQUIRES_MORE, PaymentActions.NOT_SUPPORTED],
    ["requiresPaymentMethod", PaymentSessionStatus.REQUIRES_MORE, PaymentActions.REQUIRES_MORE],
    ["requiresAction", PaymentSessionStatus.REQUIRES_MORE, PaymentActions.REQUIRES_MORE],
    ["processing", PaymentSessionStatus.PENDING_AUTHORIZATION, PaymentActions.PENDING_AUTHORIZATION],
    ["succeeded", PaymentSessionStatus.CAPTURED, PaymentActions.SUCCESSFUL],
    ["failed", PaymentSessionStatus.ERROR, PaymentActions.FAILED],
    ["canceled", PaymentSessionStatus.CANCELED, PaymentActions.CANCELED],
  ] as const)("%s -> session %s, webhook action %s", (status, session, action) => {
    expect(SESSION_STATUS[status]).toBe(session)
    expect(WEBHOOK_ACTION[status]).toBe(action)
  })

  it("covers every intent status of spec 3.1; the final ones are final", () => {
    expect(Object.keys(SESSION_STATUS).sort()).toEqual([...PAYMENT_INTENT_STATUSES].sort())
    expect(Object.keys(WEBHOOK_ACTION).sort()).toEqual([...PAYMENT_INTENT_STATUSES].sort())
    expect([...FINAL].sort()).toEqual(["canceled", "failed", "succeeded"])
  })
})

describe("embedded-card options", () => {
  it("accepts one secret or several (rotation) and fills defaults", () => {
    expect(parseEmbeddedCardOptions(valid)).toMatchObject({ webhookSecrets: [valid.webhookSecrets], returnPath: "/checkout/card/return" })
    const rotating = parseEmbeddedCardOptions({ ...valid, webhookSecrets: [valid.webhookSecrets, "whsec_" + "d".repeat(48)] })
    expect(rotating.webhookSecrets).toHaveLength(2)
  })

  it.each([
    [{ ...valid, secretKey: valid.publishableKey }, "secretKey"],
    [{ ...valid, publishableKey: valid.secretKey }, "publishableKey"],
    [{ ...valid, webhookSecrets: "whsec_short" }, "webhookSecrets"],
    [{ ...valid, apiBaseUrl: "nope" }, "apiBaseUrl"],
    [{ ...valid, sdkIntegrity: "md5-x" }, "sdkIntegrity"],
  ])("refuses bad options at boot, naming them without their values (%#)", (options, field) => {
    let message = ""
    try {
      EmbeddedCardProviderService.validateOptions(options)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain(field)
    expect(message).not.toContain(valid.secretKey)
    expect(message).not.toContain(valid.webhookSecrets)
  })

  it("boots without a webhook secret but warns that webhooks will be rejected", () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined)
    EmbeddedCardProviderService.validateOptions({ ...valid, webhookSecrets: undefined })
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("every webhook will be rejected"))
    warn.mockRestore()
  })
})

describe("embedded-card storefront data", () => {
  it("accepts only the session id and a storefront path", () => {
    expect(parseStorefrontData({ session_id: "payses_1", return_path: "/thanks" })).toEqual({ session_id: "payses_1", return_path: "/thanks" })
    expect(() => parseStorefrontData({ session_id: "payses_1", price: 1 })).toThrow(/price/)
    expect(() => parseStorefrontData({ session_id: "payses_1", clientSecretX: "x" })).toThrow(/clientSecretX/)
    expect(() => parseStorefrontData({ session_id: "payses_1", return_path: "https://evil.test" })).toThrow(/return_path/)
  })

  it("takes the card form's language, zh-TW or en, and refuses any other with the field named", () => {
    expect(parseStorefrontData({ session_id: "payses_1", locale: "en" })).toEqual({ session_id: "payses_1", locale: "en" })
    expect(parseStorefrontData({ session_id: "payses_1", locale: "zh-TW" })).toEqual({ session_id: "payses_1", locale: "zh-TW" })
    expect(() => parseStorefrontData({ session_id: "payses_1", locale: "ja" })).toThrow(/locale: must be one of "zh-TW", "en"/)
    expect(() => parseStorefrontData({ session_id: "payses_1", locale: "zh-tw" })).toThrow(expect.objectContaining({ code: "payment_data_invalid" }))
  })
})

describe("embedded-card session data given back by Medusa", () => {
  // Medusa recreates a deleted session from its old data when a workflow compensates.
  const written = {
    session_id: "payses_2",
    return_path: "/thanks",
    paymentIntentId: "pi_old",
    clientSecret: "pi_old_secret_x",
    publishableKey: "pk_x",
    sdkUrl: "https://sdk.test/twpay.js",
    returnUrl: "https://shop.test/thanks",
    amount: 500,
    status: "succeeded",
    refunds: [{ id: "re_1", amount: 500, status: "succeeded" }],
    attestation: { status: "succeeded", at: "2026-11-23T00:00:00Z", mac: "00" },
  }

  it("is accepted, keeping only what a storefront may choose", () => {
    expect(parseStorefrontData(written)).toEqual({ session_id: "payses_2", return_path: "/thanks" })
  })

  it("still refuses a wrong storefront field next to written ones", () => {
    expect(() => parseStorefrontData({ ...written, return_path: "https://evil.test" })).toThrow(/return_path/)
  })

  it("is cleared by a new intent's data, key by key", () => {
    const merged = JSON.parse(JSON.stringify({ ...written, ...freshSessionData, session_id: "payses_2", paymentIntentId: "pi_new" }))
    expect(merged).toEqual({ session_id: "payses_2", return_path: "/thanks", paymentIntentId: "pi_new" })
  })
})
