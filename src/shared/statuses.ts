/**
 * The statuses of the plugin's own records, in one place: the models declare
 * their enums from these lists, and the routes, the admin and the demo
 * storefront show and filter by them. Medusa-free, so the admin bundle and the
 * storefront can import it.
 */

export const SUBSCRIPTION_STATUSES = ["pending", "pending_first_charge", "active", "retrying", "stopped", "completed", "cancelled"] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/** Statuses a cancel can still change; the others are final. */
export const CANCELLABLE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ["pending", "pending_first_charge", "active", "retrying"]
export const isCancellable = (status: SubscriptionStatus) => CANCELLABLE_SUBSCRIPTION_STATUSES.includes(status)

export const PLAN_KINDS = ["monthly", "scheduled"] as const
export type PlanKind = (typeof PLAN_KINDS)[number]

export const PERIOD_STATUSES = ["paid", "retrying", "failed"] as const
export type PeriodStatus = (typeof PERIOD_STATUSES)[number]

export const SAVED_CARD_STATUSES = ["binding", "active", "failed", "deleted"] as const
export type SavedCardStatus = (typeof SAVED_CARD_STATUSES)[number]

/** What a list shows: a deleted card is gone for the customer and the admin. */
export const LISTED_SAVED_CARD_STATUSES = ["binding", "active", "failed"] as const satisfies readonly SavedCardStatus[]
export type ListedSavedCardStatus = (typeof LISTED_SAVED_CARD_STATUSES)[number]
