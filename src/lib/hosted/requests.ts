import { z } from "zod"
import { invoiceInfoSchema } from "./invoice-info"
import { addMonths, compareCalendarDates, formatCalendarDate, parseCalendarDate, taipeiDate } from "./taipei-date"

/**
 * Request bodies of the hosted API (spec 2.3, 4, 8), checked before anything is
 * sent. Objects are strict: the service silently ignores unknown fields, so a typo
 * such as `sucessUrl` would otherwise go unnoticed until a consumer is stranded.
 * Named variants travel in the issue's `params.variant`, which `validateRequest`
 * copies to `InvalidRequestError.variant`, matching what the service would answer.
 */

/** Rules that depend on the merchant's setup or on the clock, not on the body alone. */
export interface RequestRules {
  /** E-invoicing is activated for the domain: `userName` and `userEmail` become required. */
  einvoice: boolean
  now: () => Date
}

export const productDetailSchema = z.strictObject({
  productionCode: z.string(),
  description: z.string(),
  quantity: z.int().min(1),
  unit: z.string(),
  /** Whole TWD; may be negative for a discount line. */
  unitPrice: z.int(),
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
const redirectUrl = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required (send null when not used)" : undefined) })
    .refine(isAbsoluteHttpUrl, "must be an absolute http(s) URL with scheme and host")
    .nullable()

const failureUrl = redirectUrl().refine(
  (url) => url === null || !/[?#]/.test(url),
  "must not carry a query string or fragment: the service appends ?payment_error=... and drops fragments"
)

const calendarDate = z
  .string()
  .refine((value) => parseCalendarDate(value) !== undefined, "must be a real date written yyyy/MM/dd")

const TWD = z.literal("TWD", { error: "only TWD is supported" })

/** Fields of every order-carrying create endpoint (C, S, Sc, T, TS in spec 2.3). */
const orderShape = {
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

/** Fields of the hosted-page endpoints (C, S, Sc). */
const pageShape = {
  successUrl: redirectUrl(),
  failureUrl,
  customId: z.string().optional(),
  use3d: z.boolean().optional(),
}

const numberOfPeriods = z.int().min(2).optional()
const paymentInterval = z.int().min(1).max(12).optional()
const startDate = calendarDate.nullable().optional()

export const checkoutBodySchema = z.strictObject({
  ...orderShape,
  ...pageShape,
  allowedPaymentMethods: z.array(z.enum(["card", "cvs", "linePay", "atm"])).optional(),
  expectedPayoutDate: calendarDate.optional(),
})

export const checkoutSubscriptionBodySchema = z.strictObject({
  ...orderShape,
  ...pageShape,
  numberOfPeriods,
})

export const checkoutScheduleBodySchema = z.strictObject({
  ...orderShape,
  ...pageShape,
  numberOfPeriods,
  paymentInterval,
  /** Default today; from today (Taipei) to before the same day 12 months ahead. */
  startDate,
})

export const cardBindingBodySchema = z.strictObject({
  merchantId: z.string().min(1),
  successUrl: redirectUrl(),
  failureUrl,
  customId: z.string().optional(),
  note: z.string().optional(),
  payerEmail: z.email().optional(),
})

const tokenShape = {
  ...orderShape,
  /** Card token from the `token` notification; redacted from every log line and error. */
  token: z.string().min(1),
  userPhone: z.string().optional(),
}

export const tokenChargeBodySchema = z.strictObject({
  ...tokenShape,
  expectedPayoutDate: calendarDate.optional(),
})

export const tokenSubscriptionBodySchema = z.strictObject({
  ...tokenShape,
  numberOfPeriods,
  paymentInterval,
  /** Omitted: the first period is charged now. Given: later than today (Taipei), before 12 months ahead. */
  startDate,
})

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

export const cancelSubscriptionBodySchema = z.strictObject({
  merchantId: z.string().min(1),
  reason: z.string().optional(),
})

/** 27 alphanumeric characters (spec 2.2). */
export const transactionIdSchema = z.string().regex(/^[0-9A-Za-z]{27}$/, "must be a 27-character transaction id")
/** `P` + date + 8 characters, 17 in all. */
export const transactionHidSchema = z.string().regex(/^P[0-9A-Za-z]{16}$/, "must be a P transaction number (17 characters)")
/** `S` + date + 8 characters, 17 in all; the service rejects internal ids. */
export const subscriptionHidSchema = z.string().regex(/^S[0-9A-Za-z]{16}$/, "must be an S subscription number (17 characters)")
export const transactionLookupSchema = z.union([transactionIdSchema, transactionHidSchema], {
  error: "must be a 27-character transaction id or a P transaction number",
})
export const orderIdSchema = z.string().min(1)

type Ctx = z.core.$RefinementCtx

function addIssue(ctx: Ctx, path: string, message: string, variant?: string): void {
  ctx.addIssue({ code: "custom", path: [path], message, ...(variant ? { params: { variant } } : {}) })
}

/**
 * Non-empty `productDetails` totalling `amount`. Refinements also run when other
 * fields failed, so every value is type-checked before use.
 */
function checkProductTotal(body: { amount?: unknown; productDetails?: unknown }, ctx: Ctx): void {
  const items = body.productDetails
  if (!Array.isArray(items)) {
    return
  }
  if (items.length === 0) {
    addIssue(ctx, "productDetails", "must list at least one item", "PRODUCT_DETAILS_REQUIRED")
    return
  }
  if (!Number.isInteger(body.amount)) {
    return
  }
  let total = 0
  for (const item of items as Array<{ quantity?: unknown; unitPrice?: unknown }>) {
    // A broken item already has its own issue; a total of broken items would only add noise.
    if (!Number.isInteger(item?.quantity) || (item.quantity as number) < 1 || !Number.isInteger(item?.unitPrice)) {
      return
    }
    total += (item.quantity as number) * (item.unitPrice as number)
  }
  if (total !== body.amount) {
    addIssue(ctx, "productDetails", "sum of quantity x unitPrice must equal amount", "PRODUCT_AMOUNT_NOT_MATCH")
  }
}

function checkInvoiceContact(body: { userName?: unknown; userEmail?: unknown }, ctx: Ctx, rules: RequestRules): void {
  if (rules.einvoice && (!body.userName || !body.userEmail)) {
    addIssue(
      ctx,
      body.userName ? "userEmail" : "userName",
      "is required when e-invoicing is activated (userName and userEmail both)",
      "USER_NAME_AND_EMAIL_REQUIRED"
    )
  }
}

/**
 * The first charge date window, in Taipei calendar days: the scheduled checkout
 * allows today, a token subscription needs a later day (today means "charge now",
 * expressed by omitting the date). Both end before the same day 12 months ahead.
 */
function checkStartDate(body: { startDate?: unknown }, ctx: Ctx, rules: RequestRules, earliest: "today" | "tomorrow"): void {
  const date = typeof body.startDate === "string" ? parseCalendarDate(body.startDate) : undefined
  if (!date) {
    return
  }
  const today = taipeiDate(rules.now())
  const sinceToday = compareCalendarDates(date, today)
  if (earliest === "today" ? sinceToday < 0 : sinceToday <= 0) {
    addIssue(
      ctx,
      "startDate",
      earliest === "today" ? "must not be before today (Taipei date)" : "must be later than today (Taipei date)",
      "START_DATE_MUST_GREATER_THAN_TODAY"
    )
  }
  const limit = addMonths(today, 12)
  if (compareCalendarDates(date, limit) >= 0) {
    addIssue(ctx, "startDate", `must be before ${formatCalendarDate(limit)} (less than 12 months ahead)`, "START_DATE_MUST_LESS_THAN_12_MONTHS")
  }
}

/** The checked request schemas for one merchant setup; the clock is read at each check. */
export function requestSchemas(rules: RequestRules) {
  return {
    checkout: checkoutBodySchema.superRefine((body, ctx) => {
      checkProductTotal(body, ctx)
      checkInvoiceContact(body, ctx, rules)
    }),
    checkoutSubscription: checkoutSubscriptionBodySchema.superRefine((body, ctx) => {
      checkProductTotal(body, ctx)
      checkInvoiceContact(body, ctx, rules)
    }),
    checkoutSchedule: checkoutScheduleBodySchema.superRefine((body, ctx) => {
      checkProductTotal(body, ctx)
      checkInvoiceContact(body, ctx, rules)
      checkStartDate(body, ctx, rules, "today")
    }),
    cardBinding: cardBindingBodySchema,
    tokenCharge: tokenChargeBodySchema.superRefine((body, ctx) => {
      checkProductTotal(body, ctx)
      checkInvoiceContact(body, ctx, rules)
    }),
    tokenSubscription: tokenSubscriptionBodySchema.superRefine((body, ctx) => {
      checkProductTotal(body, ctx)
      checkInvoiceContact(body, ctx, rules)
      checkStartDate(body, ctx, rules, "tomorrow")
    }),
    refund: refundBodySchema.superRefine((body, ctx) => {
      // Without an amount the refund is full and the original total is unknown here.
      if (Array.isArray(body.productDetails) && (body.amount !== undefined || body.productDetails.length === 0)) {
        checkProductTotal(body, ctx)
      }
    }),
    cancelSubscription: cancelSubscriptionBodySchema,
  }
}

export type RequestSchemas = ReturnType<typeof requestSchemas>

export type ProductDetail = z.input<typeof productDetailSchema>
export type RemitInfo = z.input<typeof remitInfoSchema>
export type CheckoutBody = z.input<typeof checkoutBodySchema>
export type CheckoutSubscriptionBody = z.input<typeof checkoutSubscriptionBodySchema>
export type CheckoutScheduleBody = z.input<typeof checkoutScheduleBodySchema>
export type CardBindingBody = z.input<typeof cardBindingBodySchema>
export type TokenChargeBody = z.input<typeof tokenChargeBodySchema>
export type TokenSubscriptionBody = z.input<typeof tokenSubscriptionBodySchema>
export type RefundBody = z.input<typeof refundBodySchema>
export type CancelSubscriptionBody = z.input<typeof cancelSubscriptionBodySchema>
