import { z } from "zod"
import { calendarDate, failureUrl, id, numberOfPeriods, orderShape, paymentInterval, redirectUrl, startDate } from "./hosted-fields"

/**
 * The four hosted-page sessions (spec 2.3, 4.1 to 4.4). Where the spec says
 * "not shown", the answers are the project's choice (the sandbox implements the
 * same): `/checkout-token` answers `{ id }`, a scheduled checkout
 * `{ id, subscriptionHid }`.
 */

// ---- requests ----

/** Fields of the hosted-page endpoints (C, S, Sc). */
const pageShape = {
  successUrl: redirectUrl(),
  failureUrl,
  customId: z.string().optional(),
  use3d: z.boolean().optional(),
}

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

export type CheckoutBody = z.input<typeof checkoutBodySchema>
export type CheckoutSubscriptionBody = z.input<typeof checkoutSubscriptionBodySchema>
export type CheckoutScheduleBody = z.input<typeof checkoutScheduleBodySchema>
export type CardBindingBody = z.input<typeof cardBindingBodySchema>

// ---- responses ----

export const checkoutCreatedSchema = z.looseObject({ id, transactionHid: id })
export const scheduleCreatedSchema = z.looseObject({ id, subscriptionHid: id })
export const cardBindingCreatedSchema = z.looseObject({ id })

export type CheckoutCreated = z.output<typeof checkoutCreatedSchema>
export type ScheduleCreated = z.output<typeof scheduleCreatedSchema>
export type CardBindingCreated = z.output<typeof cardBindingCreatedSchema>
