import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import type { SubscriptionPlan } from "./subscription-plans.js"
import { storeCall } from "./store-answer.js"

/**
 * The logged-in customer's subscriptions, through the plugin's routes under
 * `/store/customers/me/tw-subscriptions` (its docs/subscriptions.md): only
 * their own; another customer's is a 404, a guest gets 401.
 */

export const SUBSCRIPTION_STATUSES = ["pending", "pending_first_charge", "active", "retrying", "stopped", "completed", "cancelled"] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/** What a cancel can still change; the other statuses are final. */
export const isCancellable = (status: SubscriptionStatus): boolean => ["pending", "pending_first_charge", "active", "retrying"].includes(status)

export interface SubscriptionPeriod {
  period: number
  status: "paid" | "retrying" | "failed"
  transaction_id: string | null
  transaction_hid: string | null
  amount: number
  /** The order the period became: the first order, then one renewal order each. */
  order_id: string | null
  paid_at: string | null
  attempts: number
}

export interface Subscription {
  id: string
  status: SubscriptionStatus
  kind: "monthly" | "scheduled"
  interval_months: number
  amount: number
  currency_code: string
  /** Null: until cancelled. */
  periods_total: number | null
  periods_charged: number
  next_charge_at: string | null
  /** Taipei date (`yyyy/MM/dd`) of the first charge. */
  start_date: string | null
  card_last4: string | null
  plan_id: string | null
  first_order_id: string | null
  cancel_reason: string | null
  cancelled_at: string | null
  created_at: string
  updated_at: string
  /** Lists only: the plan's title, kept when the plan is deleted. */
  plan_title?: string | null
  /** One subscription only: its periods, and the plan it started on. */
  periods?: SubscriptionPeriod[]
  plan?: SubscriptionPlan | null
}

const BASE = "/store/customers/me/tw-subscriptions"

/** The customer's subscriptions, newest first. */
export async function listSubscriptions(sdk: Medusa, query: { limit?: number; offset?: number } = {}, headers?: ClientHeaders): Promise<{ subscriptions: Subscription[]; count: number }> {
  const { subscriptions, count } = await storeCall(() => sdk.client.fetch<{ subscriptions: Subscription[]; count: number }>(BASE, { query, headers }))
  return { subscriptions, count }
}

/** One of the customer's subscriptions, with its periods. */
export async function retrieveSubscription(sdk: Medusa, id: string, headers?: ClientHeaders): Promise<Subscription> {
  return (await storeCall(() => sdk.client.fetch<{ subscription: Subscription }>(`${BASE}/${encodeURIComponent(id)}`, { headers }))).subscription
}

/**
 * Cancels at the payment service first: its refusal (a charge running right
 * now, say) is thrown with the store's message, and nothing changes.
 */
export async function cancelSubscription(sdk: Medusa, id: string, reason?: string, headers?: ClientHeaders): Promise<Subscription> {
  const body = reason?.trim() ? { reason: reason.trim() } : {}
  return (await storeCall(() => sdk.client.fetch<{ subscription: Subscription }>(`${BASE}/${encodeURIComponent(id)}/cancel`, { method: "POST", body, headers }))).subscription
}
