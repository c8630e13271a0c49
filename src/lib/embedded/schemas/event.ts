import { z } from "zod"
import { unixSeconds } from "./embedded-fields"
import { paymentIntent } from "./payment-intent"
import { refund } from "./embedded-refund"

/** Spec 6. */
export const PAYMENT_INTENT_EVENT_TYPES = [
  "payment_intent.created",
  "payment_intent.requires_action",
  "payment_intent.succeeded",
  "payment_intent.failed",
  "payment_intent.canceled",
] as const
export const REFUND_EVENT_TYPES = ["refund.created", "refund.succeeded", "refund.failed"] as const
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_INTENT_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const

export type PaymentIntentEventType = (typeof PAYMENT_INTENT_EVENT_TYPES)[number]
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number]
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES)

/**
 * Event data is the intent "without clientSecret". Should one ever arrive it is
 * dropped here, so it cannot travel on into session data or logs.
 */
const eventPaymentIntent = paymentIntent.omit({ clientSecret: true }).transform((intent) => {
  delete (intent as Record<string, unknown>).clientSecret
  return intent
})

const eventBase = {
  id: z.string().startsWith("evt_").min(5),
  api_version: z.string().min(1),
  created: unixSeconds,
}

export const paymentIntentEvent = z.looseObject({
  ...eventBase,
  type: z.enum(PAYMENT_INTENT_EVENT_TYPES),
  data: eventPaymentIntent,
})

export const refundEvent = z.looseObject({
  ...eventBase,
  type: z.enum(REFUND_EVENT_TYPES),
  data: refund,
})

export const webhookEvent = z.discriminatedUnion("type", [paymentIntentEvent, refundEvent])

export type PaymentIntentEvent = z.output<typeof paymentIntentEvent>
export type RefundEvent = z.output<typeof refundEvent>
/** Narrow on `type`: `payment_intent.*` carries a PaymentIntent, `refund.*` a Refund. */
export type WebhookEvent = z.output<typeof webhookEvent>
