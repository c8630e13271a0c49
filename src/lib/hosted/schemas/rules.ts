import type { z } from "zod"
import { addMonths, compareCalendarDates, formatCalendarDate, parseCalendarDate, taipeiDate } from "../taipei-date"
import { cardBindingBodySchema, checkoutBodySchema, checkoutScheduleBodySchema, checkoutSubscriptionBodySchema } from "./checkout"
import { refundBodySchema } from "./hosted-refund"
import { cancelSubscriptionBodySchema } from "./hosted-subscription"
import { tokenChargeBodySchema, tokenSubscriptionBodySchema } from "./token-payment"

/**
 * Rules across fields of a request body (spec 2.3, 4, 8), checked before
 * anything is sent. Named variants travel in the issue's `params.variant`,
 * which `validateRequest` copies to `InvalidRequestError.variant`, matching what
 * the service would answer.
 */

/** Rules that depend on the merchant's setup or on the clock, not on the body alone. */
export interface RequestRules {
  /** E-invoicing is activated for the domain: `userName` and `userEmail` become required. */
  einvoice: boolean
  now: () => Date
}

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
