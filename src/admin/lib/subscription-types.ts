/** The admin routes' objects, as docs/subscriptions.md describes them. */

/** The module's statuses (src/modules/tw-subscription/models), repeated here: admin code cannot import server models. */
export const SUBSCRIPTION_STATUSES = ["pending", "pending_first_charge", "active", "retrying", "stopped", "completed", "cancelled"] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]
/** Statuses a cancel can still change; the others are final. */
export const CANCELLABLE: readonly SubscriptionStatus[] = ["pending", "pending_first_charge", "active", "retrying"]

export type PlanKind = "monthly" | "scheduled"

export interface Plan {
  id: string
  variant_id: string
  title: string
  kind: PlanKind
  interval_months: number
  /** null: until cancelled. */
  periods: number | null
  first_charge_delay_days: number
  active: boolean
  created_at: string
  updated_at: string
}

export interface Period {
  period: number
  status: "paid" | "retrying" | "failed"
  transaction_id: string | null
  transaction_hid: string | null
  amount: number
  order_id: string | null
  paid_at: string | null
  attempts: number
}

export interface Subscription {
  id: string
  status: SubscriptionStatus
  kind: PlanKind
  interval_months: number
  amount: number
  currency_code: string
  periods_total: number | null
  periods_charged: number
  next_charge_at: string | null
  start_date: string | null
  service_subscription_id: string | null
  card_last4: string | null
  customer_id: string
  plan_id: string | null
  /** The plan's title: `GET /admin/tw-subscriptions` only (null when the subscription has no plan). */
  plan_title?: string | null
  first_order_id: string | null
  cancel_reason: string | null
  cancelled_at: string | null
  created_at: string
  updated_at: string
}

export interface SubscriptionDetail extends Subscription {
  periods: Period[]
  customer: { id: string; email: string; first_name: string | null; last_name: string | null } | null
  plan: Plan | null
}
