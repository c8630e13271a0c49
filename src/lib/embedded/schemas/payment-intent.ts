import { z } from "zod"
import { charCount, httpUrl, listLimit, maxChars, noControlCharacters, unixSeconds } from "./embedded-fields"
import { metadataParams, metadataRecord } from "./metadata"

/** Spec 3.1. */
export const PAYMENT_INTENT_STATUSES = [
  "created",
  "requiresPaymentMethod",
  "requiresAction",
  "processing",
  "succeeded",
  "failed",
  "canceled",
] as const

export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number]

export const paymentIntentStatus = z.enum(PAYMENT_INTENT_STATUSES)

export const AMOUNT_LIMITS = { min: 1, max: 200_000 } as const

export const amount = z.int().min(AMOUNT_LIMITS.min).max(AMOUNT_LIMITS.max)

export const orderId = z
  .string()
  .min(1)
  .refine((text) => charCount(text) <= 255, "Too long: at most 255 characters")
  .refine((text) => !text.includes("#"), "Must not contain '#'")
  .refine(noControlCharacters, "Must not contain control characters")

// ---- requests ----

export const createPaymentIntentParams = z.strictObject({
  amount,
  orderId,
  returnUrl: httpUrl,
  // Optional on the wire; sent explicitly so a replayed key always carries the same body.
  currency: z.literal("TWD").default("TWD"),
  description: maxChars(1000).optional(),
  metadata: metadataParams.optional(),
  require3ds: z.boolean().optional(),
})

/** Only `metadata` may change (spec 4). The object sent replaces the stored metadata. */
export const updatePaymentIntentParams = z.strictObject({ metadata: metadataParams })

export const listPaymentIntentsParams = z.strictObject({
  status: paymentIntentStatus.optional(),
  createdGte: unixSeconds.optional(),
  createdLte: unixSeconds.optional(),
  limit: listLimit.optional(),
})

export type CreatePaymentIntentParams = z.input<typeof createPaymentIntentParams>
export type UpdatePaymentIntentParams = z.input<typeof updatePaymentIntentParams>
export type ListPaymentIntentsParams = z.input<typeof listPaymentIntentsParams>

// ---- responses ----

/**
 * The spec names these fields and says the rest is "not shown"; `created`
 * (unix seconds) is the project's addition. Unknown fields are tolerated.
 */
export const paymentIntent = z.looseObject({
  id: z.string().min(1),
  /** Present only in the create response. */
  clientSecret: z.string().min(1).optional(),
  status: paymentIntentStatus,
  amount: z.int(),
  currency: z.string(),
  orderId: z.string(),
  returnUrl: z.string(),
  description: z.string().nullish(),
  metadata: metadataRecord,
  require3ds: z.boolean().optional(),
  lastPaymentError: z.looseObject({ code: z.string(), message: z.string().optional() }).nullish(),
  amountRefundable: z.int().min(0),
  created: unixSeconds,
})

/** The create response carries the `clientSecret`, once. */
export const createdPaymentIntent = paymentIntent.extend({ clientSecret: z.string().min(1) })

export type PaymentIntent = z.output<typeof paymentIntent>
export type CreatedPaymentIntent = z.output<typeof createdPaymentIntent>
