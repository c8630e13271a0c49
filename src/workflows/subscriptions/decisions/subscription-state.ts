import type { Subscription as ServiceSubscription, Transaction } from "../../../lib/hosted"
import type { PeriodStatus } from "../../../modules/tw-subscription/models/period"
import type { SubscriptionStatus } from "../../../modules/tw-subscription/models/subscription"
import type { PeriodState, SubscriptionState } from "../../../modules/tw-subscription/service"

/**
 * What one fresh read of the service (the subscription and the transactions
 * of its `orderId`) says about a subscription, in the store's terms. Pure, so
 * every rule is unit-tested; the workflow only carries it out.
 *
 * The spec's transaction read carries no subscription number or period (2.4),
 * so periods are counted from the transactions of the checkout's `orderId`
 * (every period is charged under it, 4.9), oldest first: each transaction that
 * was ever paid closes one period; failed attempts before it are that
 * period's retries. A notification's `period` is only a hint and is never
 * needed: the count is the same however notifications were lost, repeated or
 * reordered.
 */

/** Transaction statuses of money that was taken (a refund later does not undo the period). */
/** A checkout page lives 5 minutes (plus 3-D Secure's 10): a checkout older than this never starts a subscription. */
export const CHECKOUT_OPEN_MS = 60 * 60_000

const EVER_PAID = new Set(["charged", "claimed", "authorized", "refunding", "refunded", "refundedPostPayout"])

export interface ObservedPeriod {
  period: number
  status: PeriodStatus
  /** The paying transaction, or the last failed attempt. */
  transactionId: string
  transactionHid: string
  amount: number
  attempts: number
  paidAt?: string
  /** Some of its money was already returned (a refund counts the period, never a second one). */
  refunded?: boolean
}

export interface SubscriptionObservation {
  status: SubscriptionStatus
  periods: ObservedPeriod[]
  periodsCharged: number
  nextChargeAt: Date | null
  cancelledAt: Date | null
  cancelReason: string | null
  cardLast4: string | null
  /** Transactions left out: another amount than the subscription's (logged by the caller). */
  ignored: string[]
}

/** The service's `scheduleStatus` (spec 3.2) as the store's status. */
export const STATUS_OF: Record<ServiceSubscription["status"], SubscriptionStatus> = {
  pending: "pending",
  trialing: "pending_first_charge",
  active: "active",
  retrying: "retrying",
  error: "stopped",
  cancelled: "cancelled",
  completed: "completed",
}

const byCreation = (a: Transaction, b: Transaction) =>
  (Date.parse(a.createdAt ?? "") || 0) - (Date.parse(b.createdAt ?? "") || 0) || a.transactionHid.localeCompare(b.transactionHid)

/**
 * `service` is undefined when the store does not know the S number yet (a
 * monthly checkout whose notifications were all lost): the transactions alone
 * then give the periods, and the status follows from them.
 */
export function observeSubscription(amount: number, transactions: readonly Transaction[], service: ServiceSubscription | undefined): SubscriptionObservation {
  const periods: ObservedPeriod[] = []
  const ignored: string[] = []
  let attempts = 0
  let lastFailed: Transaction | undefined
  let cardLast4: string | null = null
  for (const tx of [...transactions].sort(byCreation)) {
    if (tx.amount !== amount) {
      ignored.push(tx.transactionHid)
      continue
    }
    if (typeof tx.paymentInfo === "string" && /^\d{4}$/.test(tx.paymentInfo)) {
      cardLast4 = tx.paymentInfo
    }
    if (EVER_PAID.has(tx.status) || tx.paidAt) {
      periods.push({
        period: periods.length + 1,
        status: "paid",
        transactionId: tx.id,
        transactionHid: tx.transactionHid,
        amount: tx.amount,
        attempts: attempts + 1,
        paidAt: tx.paidAt,
        refunded: !!tx.refundAmount || tx.status.startsWith("refund"),
      })
      attempts = 0
      lastFailed = undefined
    } else if (tx.status === "failed") {
      attempts += 1
      lastFailed = tx
    }
  }
  const status = service ? STATUS_OF[service.status] : periods.length ? "active" : "pending"
  if (lastFailed) {
    periods.push({
      period: periods.length + 1,
      status: status === "retrying" ? "retrying" : "failed",
      transactionId: lastFailed.id,
      transactionHid: lastFailed.transactionHid,
      amount: lastFailed.amount,
      attempts,
    })
  }
  const extra = service as (ServiceSubscription & { nextChargeAt?: string }) | undefined
  const live = status === "active" || status === "retrying" || status === "pending_first_charge"
  return {
    status,
    periods,
    periodsCharged: periods.filter((p) => p.status === "paid").length,
    nextChargeAt: live && extra?.nextChargeAt ? new Date(extra.nextChargeAt) : null,
    cancelledAt: service?.cancelledAt ? new Date(service.cancelledAt) : null,
    cancelReason: service?.reason ?? null,
    cardLast4,
    ignored,
  }
}

/** A period row the store already keeps. */
export interface KeptPeriod {
  period: number
  status: PeriodStatus
  transaction_id: string | null
}

/**
 * The observed periods numbered as the store already knows them: a paid
 * transaction keeps the number it was first recorded under, whatever the
 * service's list shows before it later (a transaction that appears late
 * gets the next free number instead of shifting the others), so one
 * transaction can never be a second period with an order of its own. An
 * unpaid row (the failed attempt of its position) is the same period when
 * that position is paid or tried again.
 */
export function stablePeriods(observed: readonly ObservedPeriod[], kept: readonly KeptPeriod[]): ObservedPeriod[] {
  const byTransaction = new Map(kept.filter((row) => row.transaction_id).map((row) => [row.transaction_id, row.period]))
  const used = new Set<number>()
  const numbered = observed.map((period) => {
    const known = byTransaction.get(period.transactionId)
    if (known !== undefined && !used.has(known)) {
      used.add(known)
      return { ...period, period: known }
    }
    return undefined
  })
  const paidElsewhere = new Set(kept.filter((row) => row.status === "paid" && !observed.some((p) => p.transactionId === row.transaction_id)).map((row) => row.period))
  let next = Math.max(0, ...kept.map((row) => row.period)) + 1
  return observed.map((period, index) => {
    const known = numbered[index]
    if (known) {
      return known
    }
    // Its position is free (or only an unpaid attempt of it is kept): it keeps it; otherwise the next free number.
    const position = period.period
    const row = kept.find((r) => r.period === position)
    if (!used.has(position) && !paidElsewhere.has(position) && (!row || row.status !== "paid")) {
      used.add(position)
      return period
    }
    while (used.has(next)) {
      next += 1
    }
    used.add(next)
    return { ...period, period: next }
  })
}

/** The order the checkout's cart was completed into. */
export interface FirstOrderState {
  id: string
  status: string
  /** Its payment was captured. */
  paid: boolean
}

/** The store's side of a subscription, as the decision needs it. */
export interface StoredSubscription {
  kind: "monthly" | "scheduled"
  /** Scheduled with a later first date: the first order waits for period 1. */
  firstChargeLater: boolean
  firstOrder?: FirstOrderState
  /** Periods that already have their order. */
  ordered: ReadonlySet<number>
  /** When the store ended the subscription (cancelled by the customer or the merchant, or its first order could not be placed). */
  endedAt?: Date
}

export type SubscriptionAction =
  /** Period 1 paid, first order awaiting it: record the payment on it. */
  | { kind: "capture-first-order"; period: ObservedPeriod }
  /** The first charge failed for good: cancel the awaiting first order. */
  | { kind: "cancel-first-order" }
  /** A paid period after the first: place its renewal order. */
  | { kind: "renewal-order"; period: ObservedPeriod }
  /** The store ended the subscription but the service's still charges: cancel it there. */
  | { kind: "cancel-at-service" }
  /** Money taken for a subscription the store had ended, with no order to show for it: give it back. */
  | { kind: "refund-period"; period: ObservedPeriod }

/** Service states in which the subscription can still charge. */
export const CHARGING: ReadonlySet<SubscriptionStatus> = new Set(["pending_first_charge", "active", "retrying"])

/**
 * What to do in the store. Period 1 is the first order, placed by the
 * checkout's cart completion (or, for a later first date, awaiting payment
 * and captured here); each later paid period gets one renewal order.
 */
export function subscriptionActions(observed: SubscriptionObservation, stored: StoredSubscription): SubscriptionAction[] {
  const actions: SubscriptionAction[] = []
  const first = observed.periods.find((p) => p.period === 1)
  const ended = stored.endedAt
  if (ended && CHARGING.has(observed.status)) {
    actions.push({ kind: "cancel-at-service" })
  }
  if (stored.firstChargeLater && stored.firstOrder && stored.firstOrder.status !== "canceled") {
    if (first?.status === "paid" && !stored.firstOrder.paid && !ended) {
      actions.push({ kind: "capture-first-order", period: first })
    } else if (!first || first.status !== "paid" || ended) {
      const over = observed.status === "stopped" || observed.status === "cancelled" || !!ended
      if (over && !stored.firstOrder.paid) {
        actions.push({ kind: "cancel-first-order" })
      }
    }
  }
  // A period paid before the store ended the subscription is still owed its order; one paid after is returned.
  const owed = (period: ObservedPeriod) => !ended || (Date.parse(period.paidAt ?? "") || Infinity) <= ended.getTime()
  for (const period of observed.periods) {
    if (period.status !== "paid" || period.refunded) {
      continue
    }
    const ordered = period.period === 1 ? !!stored.firstOrder?.paid || (!!stored.firstOrder && !stored.firstChargeLater) : stored.ordered.has(period.period)
    if (ordered) {
      continue
    }
    // Renewals only once the first order exists: they copy it.
    if (period.period > 1 && stored.firstOrder && stored.firstOrder.status !== "canceled" && owed(period)) {
      actions.push({ kind: "renewal-order", period })
    } else if (ended && (period.period > 1 || !stored.firstOrder || stored.firstOrder.status === "canceled")) {
      actions.push({ kind: "refund-period", period })
    }
  }
  return actions
}

/** The store's row before a read, as recording the read needs it. Dates may arrive as ISO strings (a workflow's data is JSON). */
export interface KeptSubscription {
  id: string
  status: SubscriptionStatus
  service_subscription_id: string | null
  first_order_id: string | null
  cancelled_at: Date | string | null
  cancel_reason: string | null
}

/** Whether the read shows money (or a bound card) for a checkout whose cart was never completed: the first order is placed. */
export function needsFirstOrder(current: Pick<KeptSubscription, "status">, firstOrder: FirstOrderState | undefined, observed: SubscriptionObservation): boolean {
  return !firstOrder && current.status !== "cancelled" && (observed.periods.some((p) => p.status === "paid") || observed.status === "pending_first_charge")
}

/**
 * Why the store ends a subscription the service still charges, if it must:
 * its first order was cancelled (the merchant's cancel refunded period 1),
 * or its checkout's payment session is gone before any order (the cart
 * changed or was abandoned, and the page was paid anyway). Later periods
 * would otherwise be charged with nothing in the store to show for them.
 */
function endReason(serviceStatus: SubscriptionStatus, firstOrder: FirstOrderState | undefined, hasCheckout: boolean): string | undefined {
  if (!CHARGING.has(serviceStatus)) {
    return undefined
  }
  if (firstOrder?.status === "canceled") {
    return `Its first order ${firstOrder.id} was cancelled`
  }
  if (!firstOrder && !hasCheckout) {
    return "Its checkout was replaced or abandoned before an order was placed"
  }
  return undefined
}

/** A period row as the read shows it; period 1 names the first order once it exists. */
function periodState(period: ObservedPeriod, firstOrder: FirstOrderState | undefined): PeriodState {
  return {
    period: period.period,
    status: period.status,
    transaction_id: period.transactionId,
    transaction_hid: period.transactionHid,
    amount: period.amount,
    attempts: period.attempts,
    paid_at: period.paidAt ? new Date(period.paidAt) : null,
    ...(period.period === 1 && firstOrder ? { order_id: firstOrder.id, order_paid: firstOrder.paid } : {}),
  }
}

export interface ServiceStateRecord {
  subscription: SubscriptionState
  periods: PeriodState[]
  /** Set when this read ends the subscription in the store (I3). */
  endsNow?: string
  /** When the store ended it (now, or earlier), if it did: periods paid after are refunded. */
  endedAt?: Date
  /** Why the store ended it, told to the service when it cancels it there. */
  cancelReason?: string
}

const asDate = (value: Date | string | null | undefined) => (value ? new Date(value) : null)

/**
 * What one read writes on the row and its periods. Local cancellation is
 * final: a stale read does not undo it. The store also ends what it can no
 * longer stand for while the service still charges (`endReason`).
 */
export function serviceStateRecord(
  row: KeptSubscription,
  read: { hid?: string; hasCheckout: boolean },
  observed: SubscriptionObservation,
  firstOrder: FirstOrderState | undefined,
  current: Pick<KeptSubscription, "status" | "cancelled_at" | "cancel_reason">,
  now: Date
): ServiceStateRecord {
  const endsNow = current.status === "cancelled" ? undefined : endReason(observed.status, firstOrder, read.hasCheckout)
  const cancelledAt = endsNow ? now : asDate(current.cancelled_at)
  const ended = !!endsNow || current.status === "cancelled"
  const status = ended ? "cancelled" : observed.status
  return {
    subscription: {
      id: row.id,
      status,
      service_subscription_id: read.hid ?? row.service_subscription_id,
      periods_charged: observed.periodsCharged,
      next_charge_at: asDate(observed.nextChargeAt),
      card_last4: observed.cardLast4,
      first_order_id: firstOrder?.id ?? row.first_order_id,
      ...(endsNow ? { cancelled_at: now, cancel_reason: endsNow } : {}),
      ...(status === "cancelled" && !cancelledAt ? { cancelled_at: asDate(observed.cancelledAt) ?? now, cancel_reason: current.cancel_reason ?? observed.cancelReason } : {}),
      synced_at: now,
    },
    periods: observed.periods.map((period) => periodState(period, firstOrder)),
    endsNow,
    endedAt: ended ? (cancelledAt ?? now) : undefined,
    cancelReason: endsNow ?? current.cancel_reason ?? undefined,
  }
}
