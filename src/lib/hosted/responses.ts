import { z } from "zod"

/**
 * Response schemas (spec 2.1, 2.4 to 2.6, 4). Records are loose: the service may
 * add fields and we pass them through; a missing required field or a wrong type is
 * an `UnexpectedResponseError`. Optional fields are `optional`, not `nullable`: the
 * service omits fields without a value.
 *
 * Where the spec says "not shown", these shapes are the project's choice (the
 * sandbox implements the same): list endpoints answer `{ transactions | subscriptions,
 * page }`, `/order/{orderId}/transactions` answers `{ transactions }`,
 * `/checkout-token` answers `{ id }`, a token charge `{ id, authCode }` with the P
 * number as `id`, a token subscription `{ subscriptionId, transactionId, authCode }`
 * (the last two absent when a future `startDate` only schedules), a scheduled
 * checkout `{ id, subscriptionHid }`.
 */

export const TRANSACTION_STATUSES = [
  "initiated",
  "charging",
  "charged",
  "claimed",
  "authorized",
  "failed",
  "refunding",
  "refunded",
  "refundedPostPayout",
  "cancelled",
] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]

export const SCHEDULE_STATUSES = ["pending", "trialing", "active", "retrying", "error", "cancelled", "completed"] as const
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number]

export const transactionStatusSchema = z.enum(TRANSACTION_STATUSES)
export const scheduleStatusSchema = z.enum(SCHEDULE_STATUSES)

const id = z.string().min(1)

export const cvsPaymentInfoSchema = z.looseObject({ cvsName: z.string(), code: z.string(), expiredAt: z.string() })
export const atmPaymentInfoSchema = z.looseObject({
  bankName: z.string(),
  bankCode: z.string(),
  account: z.string(),
  expiredAt: z.string(),
})
/** Card: last four digits; `linePay`: wallet transaction number; cvs and atm: where and until when to pay. */
export const paymentInfoSchema = z.union([z.string(), cvsPaymentInfoSchema, atmPaymentInfoSchema])

/** An item as the service echoes it; loose, unlike the strict request item. */
export const productDetailRecordSchema = z.looseObject({
  productionCode: z.string().optional(),
  description: z.string().optional(),
  quantity: z.number().optional(),
  unit: z.string().optional(),
  unitPrice: z.number().optional(),
})

export const transactionSchema = z.looseObject({
  id,
  transactionId: z.string().optional(),
  transactionHid: id,
  merchantId: id,
  orderId: z.string().optional(),
  status: transactionStatusSchema,
  amount: z.number(),
  /** Lower-case in notifications and possibly in queries (`twd`). */
  currency: z.string().optional(),
  paymentMethod: z.string().optional(),
  paymentInfo: paymentInfoSchema.optional(),
  authCode: z.string().optional(),
  customId: z.string().optional(),
  userId: z.string().optional(),
  /** Absent when the transaction was looked up by its P number. */
  productDetails: z.array(productDetailRecordSchema).optional(),
  numberOfPeriods: z.number().optional(),
  refundAmount: z.number().optional(),
  createdAt: z.string().optional(),
  paidAt: z.string().optional(),
})
export type Transaction = z.output<typeof transactionSchema>

export const subscriptionSchema = z.looseObject({
  /** The S subscription number. */
  id,
  status: scheduleStatusSchema,
  period: z.number().optional(),
  paymentInterval: z.number().optional(),
  startedAt: z.string().optional(),
  cancelledAt: z.string().optional(),
  reason: z.string().optional(),
  createdAt: z.string().optional(),
})
export type Subscription = z.output<typeof subscriptionSchema>

export const checkoutCreatedSchema = z.looseObject({ id, transactionHid: id })
export const scheduleCreatedSchema = z.looseObject({ id, subscriptionHid: id })
export const cardBindingCreatedSchema = z.looseObject({ id })
export const tokenChargeResultSchema = z.looseObject({ id, authCode: z.string() })
export const tokenSubscriptionResultSchema = z.looseObject({
  subscriptionId: id,
  transactionId: z.string().optional(),
  authCode: z.string().optional(),
})
export const refundResultSchema = z.looseObject({ status: transactionStatusSchema, refundAmount: z.number() })

// Spec 4.8 says "null when none", and 2.1 that empty fields are omitted: accept both as the end.
const pageMarker = z
  .string()
  .min(1)
  .nullish()
  .transform((page) => page ?? null)
export const transactionPageSchema = z.looseObject({ transactions: z.array(transactionSchema), page: pageMarker })
export const subscriptionPageSchema = z.looseObject({ subscriptions: z.array(subscriptionSchema), page: pageMarker })
export const orderTransactionsSchema = z.looseObject({ transactions: z.array(transactionSchema) })

export type CheckoutCreated = z.output<typeof checkoutCreatedSchema>
export type ScheduleCreated = z.output<typeof scheduleCreatedSchema>
export type CardBindingCreated = z.output<typeof cardBindingCreatedSchema>
export type TokenChargeResult = z.output<typeof tokenChargeResultSchema>
export type TokenSubscriptionResult = z.output<typeof tokenSubscriptionResultSchema>
export type RefundResult = z.output<typeof refundResultSchema>
export type TransactionPage = z.output<typeof transactionPageSchema>
export type SubscriptionPage = z.output<typeof subscriptionPageSchema>
