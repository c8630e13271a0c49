import { z } from "zod"
import { AMOUNT_LIMITS } from "./payment-intent"
import { listLimit, resourceId, unixSeconds } from "./embedded-fields"
import { metadataParams, metadataRecord } from "./metadata"

export const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const
/** Not shown in the spec; the project's choice, mirrored by the sandbox. */
export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const

export type RefundReason = (typeof REFUND_REASONS)[number]
export type RefundStatus = (typeof REFUND_STATUSES)[number]

// ---- requests ----

export const createRefundParams = z.strictObject({
  paymentIntentId: resourceId,
  reason: z.enum(REFUND_REASONS),
  // Omitted refunds the whole remainder. Never above an intent's maximum amount,
  // since `amountRefundable` cannot exceed it.
  amount: z.int().min(1).max(AMOUNT_LIMITS.max).optional(),
  metadata: metadataParams.optional(),
})

/** Query of `GET /v1/refunds`; not shown in the spec, the project's choice. */
export const listRefundsParams = z.strictObject({
  paymentIntentId: resourceId.optional(),
  limit: listLimit.optional(),
})

export type CreateRefundParams = z.input<typeof createRefundParams>
export type ListRefundsParams = z.input<typeof listRefundsParams>

// ---- responses ----

/** Refund fields are not shown in the spec; this shape is the project's choice. */
export const refund = z.looseObject({
  id: z.string().min(1),
  paymentIntentId: z.string().min(1),
  amount: z.int(),
  status: z.enum(REFUND_STATUSES),
  reason: z.enum(REFUND_REASONS),
  metadata: metadataRecord,
  failureCode: z.string().nullish(),
  created: unixSeconds,
})

export type Refund = z.output<typeof refund>
