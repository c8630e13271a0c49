import { isCancellable, type SubscriptionStatus } from "../../src/shared/statuses"
import type { PeriodView } from "../../src/shared/subscription-views"
import { sdk } from "./medusa"

/**
 * The logged-in customer's subscriptions, through the routes under
 * `/store/customers/me/tw-subscriptions` (docs/subscriptions.md): only ever
 * their own.
 */

// The plugin's own status list and period view (src/shared), so the storefront cannot drift from the model.
export type { SubscriptionStatus }
export type SubscriptionPeriod = PeriodView

export interface Subscription {
  id: string
  status: SubscriptionStatus
  kind: "monthly" | "scheduled"
  interval_months: number
  amount: number
  currency_code: string
  periods_total: number | null
  periods_charged: number
  next_charge_at: string | null
  start_date: string | null
  card_last4: string | null
  plan_id: string | null
  /** Lists only: the plan's title. */
  plan_title?: string | null
  first_order_id: string | null
  cancel_reason: string | null
  cancelled_at: string | null
  created_at: string
  /** Detail only. */
  periods?: SubscriptionPeriod[]
  /** Detail only: the plan the subscription started on. */
  plan?: { id: string; title: string } | null
}

const BASE = "/store/customers/me/tw-subscriptions"

export async function mySubscriptions(): Promise<Subscription[]> {
  const { subscriptions } = await sdk.client.fetch<{ subscriptions: Subscription[] }>(BASE, { query: { limit: 100 } })
  return subscriptions
}

export async function mySubscription(id: string): Promise<Subscription> {
  return (await sdk.client.fetch<{ subscription: Subscription }>(`${BASE}/${encodeURIComponent(id)}`)).subscription
}

/** Cancels at the payment service first; a refusal (a charge running right now, say) throws its message. */
export async function cancelMySubscription(id: string, reason: string | undefined): Promise<Subscription> {
  const body = reason ? { reason } : {}
  return (await sdk.client.fetch<{ subscription: Subscription }>(`${BASE}/${encodeURIComponent(id)}/cancel`, { method: "POST", body })).subscription
}

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  pending: "Awaiting the first payment",
  pending_first_charge: "Starts on the first charge date",
  active: "Active",
  retrying: "A charge failed; retrying",
  stopped: "Stopped",
  completed: "Completed",
  cancelled: "Cancelled",
}

/** What a shopper may still cancel: anything not over yet. */
export const cancellable = (s: Subscription) => isCancellable(s.status)

export const PERIOD_LABELS: Record<SubscriptionPeriod["status"], string> = {
  paid: "Paid",
  retrying: "Failed, retrying",
  failed: "Failed",
}

/** "3 of 12" / "3". */
export const periodsCharged = (s: Subscription) => (s.periods_total === null ? String(s.periods_charged) : `${s.periods_charged} of ${s.periods_total}`)
