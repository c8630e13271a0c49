import { PaymentServiceError } from "../../http"
import { InvalidNotificationError, parseNotification } from "../notifications"
import { CARD_TOKEN, ITEM, MERCHANT, SUB_HID, TX_HID, TX_ID } from "./mock-api"

const charge = {
  purpose: "charge",
  id: TX_ID,
  transactionId: TX_ID,
  transactionHid: TX_HID,
  merchantId: MERCHANT,
  orderId: "order_01JD7K",
  action: "onetime",
  status: "charged",
  success: true,
  paymentMethod: "card",
  amount: 1200,
  currency: "twd",
  paymentInfo: "4242",
  authCode: "A12345",
  customId: "payses_01JD7K",
  productDetails: [ITEM],
  createdAt: "2026-11-21T16:29:00.000Z",
  paidAt: "2026-11-21T16:31:00.000Z",
}

const token = {
  purpose: "token",
  id: TX_ID,
  transactionId: TX_ID,
  merchantId: MERCHANT,
  success: true,
  token: CARD_TOKEN,
  paymentInfo: "4242",
  customId: "cus_01JD7K",
}

const scheduleSubscription = {
  purpose: "schedule_subscription",
  id: TX_ID,
  subscriptionId: SUB_HID,
  merchantId: MERCHANT,
  success: true,
  amount: 1200,
  currency: "twd",
  period: 0,
  numberOfPeriods: 6,
  interval: 3,
  startedAt: "2026-12-01T01:00:00.000Z",
  nextChargeAt: "2026-12-01T01:00:00.000Z",
  paymentInfo: "4242",
  customId: "payses_01JD7L",
  productDetails: [ITEM],
}

const refund = {
  purpose: "refund",
  id: "evt_9c1d7e5f3a",
  refundId: "rf_01JD7M",
  chargeId: TX_ID,
  chargeHumanId: TX_HID,
  amount: 600,
  origAmount: 1200,
  currency: "twd",
  refundStatus: "refunding",
  reason: "one pack damaged",
  paymentMethod: "cvs",
  requestedAt: "2026-11-21T17:00:00.000Z",
  customId: "payses_01JD7K",
}

const subscriptionCancelled = {
  purpose: "subscription_cancelled",
  subscriptionId: SUB_HID,
  source: "merchant_api",
  reason: "customer request",
  cancelledAt: "2026-11-21T16:30:01.000Z",
  cancelledFromStatus: "active",
  period: 3,
  numberOfPeriods: 12,
  customId: "payses_01JD7L",
}

const subscriptionRetry = {
  purpose: "subscription_retry",
  outcome: "scheduled",
  retryAttemptNumber: 1,
  nextRetryAt: "2026-11-23T01:00:00.000Z",
  failureCode: "exceeds_credit_limit",
  chargeId: TX_ID,
  chargeHumanId: TX_HID,
  subscriptionId: SUB_HID,
  period: 4,
}

const invalid = (body: unknown): InvalidNotificationError => {
  try {
    parseNotification(body)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidNotificationError)
    expect(error).toBeInstanceOf(PaymentServiceError)
    expect((error as InvalidNotificationError).code).toBe("INVALID_NOTIFICATION")
    return error as InvalidNotificationError
  }
  throw new Error("expected parseNotification to throw")
}

describe("parseNotification", () => {
  it.each([
    ["charge", charge],
    ["token", token],
    ["schedule_subscription", scheduleSubscription],
    ["refund", refund],
    ["subscription_cancelled", subscriptionCancelled],
    ["subscription_retry", subscriptionRetry],
  ])("parses a %s notification unchanged", (purpose, body) => {
    const parsed = parseNotification(body)
    expect(parsed.purpose).toBe(purpose)
    expect(parsed).toEqual(body)
  })

  it("accepts the raw body as a Buffer or as JSON text", () => {
    expect(parseNotification(Buffer.from(JSON.stringify(charge)))).toEqual(charge)
    expect(parseNotification(JSON.stringify(refund))).toEqual(refund)
  })

  it("narrows on purpose", () => {
    const parsed = parseNotification(charge)
    if (parsed.purpose !== "charge") throw new Error("not narrowed")
    expect(parsed.transactionHid).toBe(TX_HID)
  })

  it("a charging cvs notification: no success field, paymentInfo object", () => {
    const cvs = { cvsName: "FamilyMart", code: "FM2611220001", expiredAt: "2026-11-24T16:00:00.000Z" }
    const { success: _s, ...rest } = charge
    const parsed = parseNotification({ ...rest, status: "charging", paymentMethod: "cvs", paymentInfo: cvs })
    expect(parsed).toMatchObject({ status: "charging", paymentInfo: cvs })
    expect(parsed).not.toHaveProperty("success")
  })

  it("a failed recurring charge with retry fields and an unknown extra field", () => {
    const body = {
      ...charge,
      action: "subscription",
      status: "failed",
      success: false,
      message: "PAYMENT_EXPIRED",
      subscriptionId: SUB_HID,
      period: 2,
      numberOfPeriods: 12,
      isRetry: true,
      failureCode: "expired_card",
      scheduleStatus: "retrying",
      nextChargeAt: "2026-11-23T01:00:00.000Z",
      newField: { nested: 1 },
    }
    expect(parseNotification(body)).toEqual(body)
  })

  it("a failed binding carries no token", () => {
    const { token: _t, ...rest } = token
    expect(parseNotification({ ...rest, success: false, message: "3DS_ABANDONED" })).toMatchObject({ success: false })
  })

  it("an exhausted retry has no nextRetryAt", () => {
    const { nextRetryAt: _n, ...rest } = subscriptionRetry
    expect(parseNotification({ ...rest, outcome: "exhausted" })).toMatchObject({ outcome: "exhausted" })
  })

  it.each([
    ["null", null, /not a JSON object/],
    ["an array", [charge], /not a JSON object/],
    ["a number", 42, /not a JSON object/],
    ["invalid JSON text", `{"purpose":"token","token":"${CARD_TOKEN}"`, /not valid JSON/],
    ["JSON text of a string", JSON.stringify("charge"), /not a JSON object/],
    ["no purpose", { ...charge, purpose: undefined }, /purpose is missing/],
    ["an unknown purpose", { ...charge, purpose: "payout" }, /purpose is not one of charge, token/],
  ])("rejects %s", (_what, body, message) => {
    const error = invalid(body)
    expect(error.message).toMatch(message)
    expect(error.message).not.toContain(CARD_TOKEN)
  })

  it.each<[string, Record<string, unknown>, string]>([
    ["charge without transactionHid", { ...charge, transactionHid: undefined }, "transactionHid"],
    ["charge with a string amount", { ...charge, amount: "1200" }, "amount"],
    ["charge with an unknown status", { ...charge, status: "paid" }, "status"],
    ["charge with success as a string", { ...charge, success: "true" }, "success"],
    ["charge with a malformed cvs paymentInfo", { ...charge, paymentInfo: { cvsName: "FamilyMart" } }, "paymentInfo"],
    ["token without merchantId", { ...token, merchantId: undefined }, "merchantId"],
    ["successful token without the token", { ...token, token: undefined }, "token"],
    ["schedule_subscription without subscriptionId", { ...scheduleSubscription, subscriptionId: undefined }, "subscriptionId"],
    ["refund with an unknown refundStatus", { ...refund, refundStatus: "done" }, "refundStatus"],
    ["refund without chargeHumanId", { ...refund, chargeHumanId: undefined }, "chargeHumanId"],
    ["subscription_cancelled with an unknown source", { ...subscriptionCancelled, source: "bank" }, "source"],
    ["subscription_retry without outcome", { ...subscriptionRetry, outcome: undefined }, "outcome"],
  ])("rejects a %s, naming the field", (_what, body, field) => {
    const error = invalid(body)
    expect(error.message).toContain(field)
  })

  it("never echoes the card token, even when the token field itself is malformed", () => {
    const error = invalid({ ...token, merchantId: 7, token: CARD_TOKEN, customId: CARD_TOKEN })
    expect(error.message).toContain("merchantId")
    expect(error.message).not.toContain(CARD_TOKEN)
    const wrongType = invalid({ ...token, token: { value: CARD_TOKEN } })
    expect(wrongType.message).toContain("token")
    expect(wrongType.message).not.toContain(CARD_TOKEN)
  })
})
