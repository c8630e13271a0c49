import { z } from "zod"
import { calendarDate, id, numberOfPeriods, orderShape, paymentInterval, startDate } from "./hosted-fields"

/**
 * Payments with a saved card token (spec 4.5, 4.6). Their answers are not
 * shown in the spec; the project's choice (the sandbox implements the same): a
 * token charge answers `{ id, authCode }` with the P number as `id`, a token
 * subscription `{ subscriptionId, transactionId, authCode }` (the last two absent
 * when a future `startDate` only schedules).
 */

// ---- requests ----

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

export type TokenChargeBody = z.input<typeof tokenChargeBodySchema>
export type TokenSubscriptionBody = z.input<typeof tokenSubscriptionBodySchema>

// ---- responses ----

export const tokenChargeResultSchema = z.looseObject({ id, authCode: z.string() })
export const tokenSubscriptionResultSchema = z.looseObject({
  subscriptionId: id,
  transactionId: z.string().optional(),
  authCode: z.string().optional(),
})

export type TokenChargeResult = z.output<typeof tokenChargeResultSchema>
export type TokenSubscriptionResult = z.output<typeof tokenSubscriptionResultSchema>
