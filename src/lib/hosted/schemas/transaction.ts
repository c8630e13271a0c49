import { z } from "zod"
import { id, pageMarker, productDetailRecordSchema, transactionHidSchema, transactionIdSchema } from "./hosted-fields"

/**
 * Transactions as the queries answer them (spec 2.4 to 2.6, 4.7 to 4.9). Where
 * the spec says "not shown", the shapes are the project's choice (the sandbox
 * implements the same): `GET /transactions` answers `{ transactions, page }`,
 * `/order/{orderId}/transactions` answers `{ transactions }`.
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

export const transactionStatusSchema = z.enum(TRANSACTION_STATUSES)

// ---- requests ----

/** `GET /transactions/{id}` takes either id. */
export const transactionLookupSchema = z.union([transactionIdSchema, transactionHidSchema], {
  error: "must be a 27-character transaction id or a P transaction number",
})
export const orderIdSchema = z.string().min(1)

// ---- responses ----

export const cvsPaymentInfoSchema = z.looseObject({ cvsName: z.string(), code: z.string(), expiredAt: z.string() })
export const atmPaymentInfoSchema = z.looseObject({
  bankName: z.string(),
  bankCode: z.string(),
  account: z.string(),
  expiredAt: z.string(),
})
/** Card: last four digits; `linePay`: wallet transaction number; cvs and atm: where and until when to pay. */
export const paymentInfoSchema = z.union([z.string(), cvsPaymentInfoSchema, atmPaymentInfoSchema])

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

export const transactionPageSchema = z.looseObject({ transactions: z.array(transactionSchema), page: pageMarker })
export const orderTransactionsSchema = z.looseObject({ transactions: z.array(transactionSchema) })

export type Transaction = z.output<typeof transactionSchema>
export type TransactionPage = z.output<typeof transactionPageSchema>
