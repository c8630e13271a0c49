import { z } from "zod"
import { id, pageMarker } from "./hosted-fields"

/**
 * Recurring payments by S number (spec 4.11 to 4.13). `GET /subscriptions`
 * answers `{ subscriptions, page }`: not shown in the spec, the project's
 * choice (the sandbox implements the same).
 */

export const SCHEDULE_STATUSES = ["pending", "trialing", "active", "retrying", "error", "cancelled", "completed"] as const
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number]

export const scheduleStatusSchema = z.enum(SCHEDULE_STATUSES)

// ---- requests ----

export const cancelSubscriptionBodySchema = z.strictObject({
  merchantId: z.string().min(1),
  reason: z.string().optional(),
})

export type CancelSubscriptionBody = z.input<typeof cancelSubscriptionBodySchema>

// ---- responses ----

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

export const subscriptionPageSchema = z.looseObject({ subscriptions: z.array(subscriptionSchema), page: pageMarker })

export type Subscription = z.output<typeof subscriptionSchema>
export type SubscriptionPage = z.output<typeof subscriptionPageSchema>
