import type { PeriodStatus, PlanKind, SubscriptionStatus } from "./statuses"

/**
 * What the subscription routes answer (docs/subscriptions.md). `D` is how a
 * date is held: `Date` where a route builds the view, an ISO string once it
 * went through JSON (the admin's and the storefront's side, the default).
 */

export interface PlanView<D = string> {
  id: string
  variant_id: string
  title: string
  kind: PlanKind
  interval_months: number
  /** null: until cancelled. */
  periods: number | null
  first_charge_delay_days: number
  active: boolean
  created_at: D
  updated_at: D
}

export interface PeriodView<D = string> {
  period: number
  status: PeriodStatus
  transaction_id: string | null
  transaction_hid: string | null
  amount: number
  order_id: string | null
  paid_at: D | null
  attempts: number
}

export interface SubscriptionView<D = string> {
  id: string
  status: SubscriptionStatus
  kind: PlanKind
  interval_months: number
  amount: number
  currency_code: string
  periods_total: number | null
  periods_charged: number
  next_charge_at: D | null
  /** Taipei date (`yyyy/MM/dd`) of the first charge. */
  start_date: string | null
  service_subscription_id: string | null
  card_last4: string | null
  customer_id: string
  plan_id: string | null
  first_order_id: string | null
  cancel_reason: string | null
  cancelled_at: D | null
  created_at: D
  updated_at: D
}

/** A row of any list: the plan's title, kept when the plan is deleted; null without a plan. */
export interface SubscriptionListItem<D = string> extends SubscriptionView<D> {
  plan_title: string | null
}

export interface SubscriptionDetailView<D = string> extends SubscriptionView<D> {
  periods: PeriodView<D>[]
  plan: PlanView<D> | null
}

export interface SubscriptionCustomer {
  id: string
  email: string
  first_name: string | null
  last_name: string | null
}

/** The admin's detail adds the customer (null when the customer was deleted). */
export interface AdminSubscriptionDetailView<D = string> extends SubscriptionDetailView<D> {
  customer: SubscriptionCustomer | null
}

/** `GET /admin/tw-subscriptions`. */
export interface AdminSubscriptionListResponse {
  subscriptions: SubscriptionListItem[]
  count: number
  limit: number
  offset: number
}
/** `GET /admin/customers/:id/tw-subscriptions`, `GET /admin/orders/:id/tw-subscriptions`. */
export interface SubscriptionsResponse {
  subscriptions: SubscriptionListItem[]
}
/** `GET /admin/tw-subscriptions/:id`, `POST …/cancel`. */
export interface AdminSubscriptionResponse {
  subscription: AdminSubscriptionDetailView
}
export interface PlansResponse {
  plans: PlanView[]
}
export interface PlanResponse {
  plan: PlanView
}

/** The body of `POST /admin/product-variants/:id/tw-subscription-plans` and `POST /admin/tw-subscription-plans/:id`. */
export type PlanFields = Pick<PlanView, "title" | "kind" | "interval_months" | "periods" | "first_charge_delay_days" | "active">
