import { z } from "zod"
import { id, productDetailRecordSchema } from "./hosted-fields"
import { scheduleStatusSchema } from "./hosted-subscription"
import { paymentInfoSchema, transactionStatusSchema } from "./transaction"

/**
 * The service's notifications (spec 6). Objects are loose (new fields must not
 * break delivery handling); a missing or mistyped documented field is rejected.
 */

export const chargeNotificationSchema = z.looseObject({
  purpose: z.literal("charge"),
  id,
  transactionId: id,
  transactionHid: id,
  merchantId: id,
  orderId: z.string().optional(),
  action: z.enum(["onetime", "subscription"]).optional(),
  status: transactionStatusSchema,
  /** Only on final results; absent while `charging`. */
  success: z.boolean().optional(),
  paymentMethod: z.string().optional(),
  amount: z.number().optional(),
  /** Lower-case (`twd`). */
  currency: z.string().optional(),
  paymentInfo: paymentInfoSchema.optional(),
  authCode: z.string().optional(),
  customId: z.string().optional(),
  productDetails: z.array(productDetailRecordSchema).optional(),
  userPhone: z.string().optional(),
  createdAt: z.string().optional(),
  paidAt: z.string().optional(),
  /** `PAYMENT_EXPIRED`, `3DS_ABANDONED`. */
  message: z.string().optional(),
  subscriptionId: z.string().optional(),
  period: z.int().optional(),
  numberOfPeriods: z.int().optional(),
  isRetry: z.boolean().optional(),
  /** `invalid_card_number`, `expired_card`, ... kept open: the list may grow. */
  failureCode: z.string().optional(),
  scheduleStatus: scheduleStatusSchema.optional(),
  nextChargeAt: z.string().optional(),
})

export const tokenNotificationSchema = z
  .looseObject({
    purpose: z.literal("token"),
    id,
    transactionId: id,
    merchantId: id,
    success: z.boolean(),
    /** The card token: store encrypted, never log. The only way to obtain it. */
    token: z.string().min(1).optional(),
    paymentInfo: z.string().optional(),
    customId: z.string().optional(),
    message: z.string().optional(),
  })
  .refine((body) => !body.success || body.token !== undefined, {
    path: ["token"],
    message: "is required when success is true",
  })

export const scheduleSubscriptionNotificationSchema = z.looseObject({
  purpose: z.literal("schedule_subscription"),
  id,
  subscriptionId: id,
  merchantId: id,
  success: z.boolean(),
  amount: z.number().optional(),
  currency: z.string().optional(),
  /** Periods already charged. */
  period: z.int().optional(),
  numberOfPeriods: z.int().optional(),
  /** Months between charges. */
  interval: z.int().optional(),
  startedAt: z.string().optional(),
  nextChargeAt: z.string().optional(),
  paymentInfo: z.string().optional(),
  customId: z.string().optional(),
  productDetails: z.array(productDetailRecordSchema).optional(),
  message: z.string().optional(),
})

/** Presence is not documented for 6.5 to 6.7; the ids that identify the event are required. */
export const refundNotificationSchema = z.looseObject({
  purpose: z.literal("refund"),
  /** Id of this event; differs on every send. */
  id,
  refundId: id,
  chargeId: id,
  /** The P number. */
  chargeHumanId: id,
  refundStatus: z.enum(["refunding", "refunded", "cancelled"]),
  amount: z.number().optional(),
  origAmount: z.number().optional(),
  currency: z.string().optional(),
  reason: z.string().optional(),
  paymentMethod: z.string().optional(),
  requestedAt: z.string().optional(),
  resolvedAt: z.string().optional(),
  customId: z.string().optional(),
  subscriptionId: z.string().optional(),
  period: z.int().optional(),
})

export const subscriptionCancelledNotificationSchema = z.looseObject({
  purpose: z.literal("subscription_cancelled"),
  subscriptionId: id,
  source: z.enum(["merchant_api", "crm"]).optional(),
  reason: z.string().optional(),
  cancelledAt: z.string().optional(),
  cancelledFromStatus: z.string().optional(),
  period: z.int().optional(),
  numberOfPeriods: z.int().optional(),
  customId: z.string().optional(),
})

export const subscriptionRetryNotificationSchema = z.looseObject({
  purpose: z.literal("subscription_retry"),
  outcome: z.enum(["scheduled", "exhausted"]),
  subscriptionId: id,
  retryAttemptNumber: z.int().optional(),
  /** Only when `scheduled`. */
  nextRetryAt: z.string().optional(),
  failureCode: z.string().optional(),
  chargeId: z.string().optional(),
  chargeHumanId: z.string().optional(),
  period: z.int().optional(),
})

export const NOTIFICATION_SCHEMAS = {
  charge: chargeNotificationSchema,
  token: tokenNotificationSchema,
  schedule_subscription: scheduleSubscriptionNotificationSchema,
  refund: refundNotificationSchema,
  subscription_cancelled: subscriptionCancelledNotificationSchema,
  subscription_retry: subscriptionRetryNotificationSchema,
} as const

export type NotificationPurpose = keyof typeof NOTIFICATION_SCHEMAS
export const NOTIFICATION_PURPOSES = Object.keys(NOTIFICATION_SCHEMAS) as NotificationPurpose[]

export type ChargeNotification = z.output<typeof chargeNotificationSchema>
export type TokenNotification = z.output<typeof tokenNotificationSchema>
export type ScheduleSubscriptionNotification = z.output<typeof scheduleSubscriptionNotificationSchema>
export type RefundNotification = z.output<typeof refundNotificationSchema>
export type SubscriptionCancelledNotification = z.output<typeof subscriptionCancelledNotificationSchema>
export type SubscriptionRetryNotification = z.output<typeof subscriptionRetryNotificationSchema>
export type HostedNotification =
  | ChargeNotification
  | TokenNotification
  | ScheduleSubscriptionNotification
  | RefundNotification
  | SubscriptionCancelledNotification
  | SubscriptionRetryNotification
