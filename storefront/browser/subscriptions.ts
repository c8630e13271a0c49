import { isCancellable, type Subscription, type SubscriptionPeriod, type SubscriptionStatus } from "medusa-payment-tw-storefront"

/**
 * How the storefront shows the logged-in customer's subscriptions; the kit
 * reads them (`listSubscriptions`, `retrieveSubscription`, `cancelSubscription`).
 */

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
