import { z } from "zod"
import { invoiceInfoSchema } from "./invoice-info"
import { parseCalendarDate } from "../taipei-date"

/**
 * Field rules shared by several hosted-API requests and responses (spec 2.2,
 * 2.3). Request objects are strict: the service silently ignores unknown
 * fields, so a typo such as `sucessUrl` would otherwise go unnoticed until a
 * consumer is stranded. Response records are loose: the service may add fields
 * and they pass through; optional fields are `optional`, not `nullable`, since
 * the service omits fields without a value.
 */

/** A non-empty id in a response. */
export const id = z.string().min(1)

export const productDetailSchema = z.strictObject({
  productionCode: z.string(),
  description: z.string(),
  quantity: z.int().min(1),
  unit: z.string(),
  /** Whole TWD; may be negative for a discount line. */
  unitPrice: z.int(),
})

/** An item as the service echoes it; loose, unlike the strict request item. */
export const productDetailRecordSchema = z.looseObject({
  productionCode: z.string().optional(),
  description: z.string().optional(),
  quantity: z.number().optional(),
  unit: z.string().optional(),
  unitPrice: z.number().optional(),
})

function isAbsoluteHttpUrl(value: string): boolean {
  // `new URL` alone accepts `http:/x`; demand the scheme and `//host` literally.
  if (!/^https?:\/\/[^/?#\s]+/i.test(value)) {
    return false
  }
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}

/** The key must be present; `null` means "no redirect address". */
export const redirectUrl = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required (send null when not used)" : undefined) })
    .refine(isAbsoluteHttpUrl, "must be an absolute http(s) URL with scheme and host")
    .nullable()

export const failureUrl = redirectUrl().refine(
  (url) => url === null || !/[?#]/.test(url),
  "must not carry a query string or fragment: the service appends ?payment_error=... and drops fragments"
)

export const calendarDate = z
  .string()
  .refine((value) => parseCalendarDate(value) !== undefined, "must be a real date written yyyy/MM/dd")

const TWD = z.literal("TWD", { error: "only TWD is supported" })

/** Fields of every order-carrying create endpoint (C, S, Sc, T, TS in spec 2.3). */
export const orderShape = {
  merchantId: z.string().min(1),
  amount: z.int().min(1),
  currency: TWD.optional(),
  orderId: z.string().min(1),
  productDetails: z.array(productDetailSchema),
  userId: z.string().optional(),
  userName: z.string().optional(),
  userEmail: z.email().optional(),
  invoiceInfo: invoiceInfoSchema.optional(),
  note: z.string().optional(),
}

export const numberOfPeriods = z.int().min(2).optional()
export const paymentInterval = z.int().min(1).max(12).optional()
export const startDate = calendarDate.nullable().optional()

/** 27 alphanumeric characters (spec 2.2). */
export const transactionIdSchema = z.string().regex(/^[0-9A-Za-z]{27}$/, "must be a 27-character transaction id")
/** `P` + date + 8 characters, 17 in all. */
export const transactionHidSchema = z.string().regex(/^P[0-9A-Za-z]{16}$/, "must be a P transaction number (17 characters)")
/** `S` + date + 8 characters, 17 in all; the service rejects internal ids. */
export const subscriptionHidSchema = z.string().regex(/^S[0-9A-Za-z]{16}$/, "must be an S subscription number (17 characters)")

// Spec 4.8 says "null when none", and 2.1 that empty fields are omitted: accept both as the end.
export const pageMarker = z
  .string()
  .min(1)
  .nullish()
  .transform((page) => page ?? null)

export type ProductDetail = z.input<typeof productDetailSchema>
