import { z } from "zod"
import { productDetailSchema } from "./hosted-fields"
import { transactionStatusSchema } from "./transaction"

/** Refunds (spec 4.10): one per transaction, partial or not. */

// ---- requests ----

export const remitInfoSchema = z.strictObject({
  bankCode: z.string().min(1),
  bankName: z.string().min(1),
  branchCode: z.string().min(1),
  branchName: z.string().min(1),
  account: z.string().min(8).max(14),
  accountName: z.string().min(1),
})

export const refundBodySchema = z.strictObject({
  merchantId: z.string().min(1),
  /** Omitted: full refund. There is only one refund per transaction, partial or not. */
  amount: z.int().min(1).optional(),
  reason: z.string().optional(),
  /** Required by the service for paid cvs/atm payments (it remits the money). */
  remitInfo: remitInfoSchema.optional(),
  /** Required by the service when the transaction was invoiced; totals the refund amount. */
  productDetails: z.array(productDetailSchema).optional(),
})

export type RemitInfo = z.input<typeof remitInfoSchema>
export type RefundBody = z.input<typeof refundBodySchema>

// ---- responses ----

export const refundResultSchema = z.looseObject({ status: transactionStatusSchema, refundAmount: z.number() })

export type RefundResult = z.output<typeof refundResultSchema>
