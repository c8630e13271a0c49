import { createHook, createWorkflow, type Hook, transform, when, type WorkflowData, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import type { SubscriptionStatus } from "../../modules/tw-subscription/models/subscription"
import { sessionSubscription } from "../../providers/hosted-checkout/public"
import { cancelTwSubscriptionFirstOrderStep } from "./steps/cancel-tw-subscription-first-order"
import { captureTwSubscriptionFirstOrderStep } from "./steps/capture-tw-subscription-first-order"
import { endTwSubscriptionAtServiceStep } from "./steps/end-tw-subscription-at-service"
import { linkTwSubscriptionOrderStep } from "./steps/link-tw-subscription-order"
import { loadTwSubscriptionStep } from "./steps/load-tw-subscription"
import { placeTwSubscriptionFirstOrderStep } from "./steps/place-tw-subscription-first-order"
import { placeTwRenewalOrdersStep } from "./steps/place-tw-renewal-orders"
import { readTwSubscriptionServiceStep } from "./steps/read-tw-subscription-service"
import { recordTwSubscriptionStateStep } from "./steps/record-tw-subscription-state"
import { refundTwSubscriptionPeriodsStep } from "./steps/refund-tw-subscription-periods"
import { needsFirstOrder, observeSubscription, type ObservedPeriod, stablePeriods, type SubscriptionAction, subscriptionActions } from "./decisions/subscription-state"

export const processTwSubscriptionWorkflowId = "process-tw-subscription"

export interface SyncInput {
  subscriptionId: string
  /** An S number a notification named (a hint, checked against the read). */
  hint?: string
  /** Look for the S number in the service's list when no notification gave it (a cancel needs it). */
  findNumber?: boolean
}

export interface SyncResult {
  status: SubscriptionStatus | "unknown"
  /** Renewal orders placed by this run. */
  placed: string[]
  /** Periods whose action failed (logged; the next run tries again). */
  failed: number[]
}

/** Payload of the hook `subscriptionStateChanged`. */
export interface SubscriptionStateChange {
  subscription_id: string
  previous_status: SubscriptionStatus
  status: SubscriptionStatus
}

/** A lock per subscription, across processes (Redis locking in production): runs never overlap. */
export const subscriptionLockKey = (id: string) => `medusa-payment-tw:subscription:${id}`

/** Seconds until a lock whose process died lapses: longer than any run (two reads, a few renewal orders). */
const LOCK_TTL = 300

const periodsOf = (actions: SubscriptionAction[], kind: "refund-period" | "renewal-order"): ObservedPeriod[] =>
  actions.flatMap((action) => (action.kind === kind ? [action.period] : []))
const periodToCapture = (actions: SubscriptionAction[]) => actions.find((action) => action.kind === "capture-first-order")?.period

/**
 * Brings one subscription in line with the service, from one fresh read,
 * under a lock on the subscription: load the row → read the service →
 * place the first order if the shopper never came back → record the
 * service's state (status, dates, one row per period; undone if a later
 * step fails) → link the first order → hook `subscriptionStateChanged` →
 * the actions the state calls for (`subscriptionActions`): cancel at the
 * service, capture or cancel an awaiting first order, refund periods
 * nothing stands for, one `create-tw-renewal-order` per paid period. An
 * action that fails is logged and reported in `failed`; the state stands
 * and the next run tries again. Every effect checks what exists, so any
 * number of runs, from any mix of notifications and the reconciliation,
 * end in the same state.
 *
 * Run by period `charge`, `schedule_subscription`, `subscription_cancelled`
 * and `subscription_retry` notifications, the first order's `order.placed`
 * and `order.canceled`, a cancel, and the reconciliation.
 */
export const processTwSubscriptionWorkflow = createWorkflow(processTwSubscriptionWorkflowId, (input: SyncInput) => {
  const lockKey = transform({ input }, ({ input }) => subscriptionLockKey(input.subscriptionId))
  acquireLockStep({ key: lockKey, timeout: 60, ttl: LOCK_TTL })
  const loaded = loadTwSubscriptionStep(input.subscriptionId)

  // A row without a checkout session has nothing to read yet.
  const read = when("tw-read-subscription-service", { loaded }, ({ loaded }) => !!loaded.checkout).then(() => {
    const target = transform({ input, loaded }, ({ input, loaded }) => ({
      subscription: loaded.subscription,
      checkout: loaded.checkout ?? { found: false, data: {} },
      hint: input.hint,
      findNumber: input.findNumber,
    }))
    return readTwSubscriptionServiceStep(target)
  })
  const observed = transform({ loaded, read }, ({ loaded, read }) => {
    if (!read) {
      return null
    }
    const counted = observeSubscription(loaded.subscription.amount, read.transactions, read.subscription)
    // Numbered as the store already knows them: a transaction never becomes a second period.
    return { ...counted, periods: stablePeriods(counted.periods, loaded.periods) }
  })

  // The checkout was paid (or the card bound) but the shopper never came back, unless the store ended the subscription first (its money is returned below).
  const placed = when("tw-place-first-order", { loaded, observed }, ({ loaded, observed }) => !!observed && needsFirstOrder(loaded.subscription, loaded.firstOrder ?? undefined, observed)).then(() => {
    const checkout = transform({ loaded }, ({ loaded }) => ({ subscription: loaded.subscription, data: loaded.checkout?.data ?? {} }))
    return placeTwSubscriptionFirstOrderStep(checkout)
  })
  const settled = transform({ loaded, placed }, ({ loaded, placed }) => {
    const { status, cancelled_at, cancel_reason } = loaded.subscription
    return placed ?? { firstOrder: loaded.firstOrder, current: { status, cancelled_at, cancel_reason } }
  })

  const recorded = when("tw-record-subscription-state", { observed }, ({ observed }) => !!observed).then(() => {
    const state = transform({ loaded, read, observed, settled }, ({ loaded, read, observed, settled }) => ({
      subscription: loaded.subscription,
      read: read ?? { transactions: [] },
      hasCheckout: !!loaded.checkout?.found,
      observed: observed!,
      firstOrder: settled.firstOrder,
      current: settled.current,
    }))
    return recordTwSubscriptionStateStep(state)
  })
  when("tw-link-first-order", { loaded, settled, recorded }, ({ loaded, settled, recorded }) => !!recorded && !!settled.firstOrder && !loaded.subscription.first_order_id).then(() => {
    const link = transform({ loaded, settled }, ({ loaded, settled }) => ({ subscriptionId: loaded.subscription.id, orderId: settled.firstOrder?.id ?? "" }))
    linkTwSubscriptionOrderStep(link).config({ name: "link-tw-subscription-first-order" })
  })

  // Before the actions, still under the lock: a handler that throws undoes the recorded state, and nothing final has happened yet.
  let subscriptionStateChanged!: Hook<"subscriptionStateChanged", WorkflowData<SubscriptionStateChange>, unknown>
  when("tw-subscription-state-changed", { loaded, recorded }, ({ loaded, recorded }) => !!recorded && recorded.status !== loaded.subscription.status).then(() => {
    const change = transform({ loaded, recorded }, ({ loaded, recorded }): SubscriptionStateChange => ({
      subscription_id: loaded.subscription.id,
      previous_status: loaded.subscription.status,
      status: recorded?.status ?? loaded.subscription.status,
    }))
    subscriptionStateChanged = createHook("subscriptionStateChanged", change)
  })

  const actions = transform({ loaded, observed, settled, recorded }, ({ loaded, observed, settled, recorded }) => {
    if (!observed || !recorded) {
      return []
    }
    return subscriptionActions(observed, {
      kind: loaded.subscription.kind,
      firstChargeLater: !!sessionSubscription(loaded.checkout?.data ?? {})?.firstChargeLater,
      firstOrder: settled.firstOrder ?? undefined,
      ordered: new Set(recorded.periods.filter((p) => p.order_id && p.order_paid).map((p) => p.period)),
      endedAt: recorded.endedAt ? new Date(recorded.endedAt) : undefined,
    })
  })

  const atService = when("tw-end-at-service", { actions }, ({ actions }) => actions.some((a) => a.kind === "cancel-at-service")).then(() => {
    const target = transform({ loaded, read, recorded }, ({ loaded, read, recorded }) => ({
      subscriptionId: loaded.subscription.id,
      providerKey: loaded.subscription.provider_key,
      hid: read?.hid ?? null,
      strays: read?.strays ?? [],
      reason: recorded?.cancelReason ?? null,
    }))
    return endTwSubscriptionAtServiceStep(target)
  })
  const captured = when("tw-capture-first-order", { actions }, ({ actions }) => !!periodToCapture(actions)).then(() => {
    const capture = transform({ loaded, settled, recorded, actions }, ({ loaded, settled, recorded, actions }) => ({
      subscriptionId: loaded.subscription.id,
      providerKey: loaded.subscription.provider_key,
      sessionId: loaded.subscription.payment_session_id ?? "",
      data: loaded.checkout?.data ?? {},
      period: periodToCapture(actions)!,
      periodId: recorded?.periods.find((p) => p.period === 1)?.id ?? "",
      orderId: settled.firstOrder?.id ?? "",
    }))
    return captureTwSubscriptionFirstOrderStep(capture)
  })
  const cancelledFirst = when("tw-cancel-first-order", { actions }, ({ actions }) => actions.some((a) => a.kind === "cancel-first-order")).then(() => {
    const order = transform({ loaded, settled }, ({ loaded, settled }) => ({ subscriptionId: loaded.subscription.id, orderId: settled.firstOrder?.id ?? "" }))
    return cancelTwSubscriptionFirstOrderStep(order)
  })
  const refunded = when("tw-refund-periods", { actions }, ({ actions }) => periodsOf(actions, "refund-period").length > 0).then(() => {
    const refunds = transform({ loaded, actions }, ({ loaded, actions }) => ({
      subscriptionId: loaded.subscription.id,
      providerKey: loaded.subscription.provider_key,
      periods: periodsOf(actions, "refund-period"),
    }))
    return refundTwSubscriptionPeriodsStep(refunds)
  })
  const renewed = when("tw-place-renewal-orders", { actions }, ({ actions }) => periodsOf(actions, "renewal-order").length > 0).then(() => {
    const renewals = transform({ loaded, read, settled, recorded, actions }, ({ loaded, read, settled, recorded, actions }) => ({
      subscription: {
        id: loaded.subscription.id,
        kind: loaded.subscription.kind,
        provider_key: loaded.subscription.provider_key,
        payment_session_id: loaded.subscription.payment_session_id ?? "",
        customer_id: loaded.subscription.customer_id,
      },
      firstOrderId: settled.firstOrder?.id ?? "",
      periods: periodsOf(actions, "renewal-order"),
      rows: recorded?.periods ?? [],
      transactions: read?.transactions ?? [],
    }))
    return placeTwRenewalOrdersStep(renewals)
  })
  releaseLockStep({ key: lockKey })

  const result = transform({ loaded, recorded, atService, captured, cancelledFirst, refunded, renewed }, (steps): SyncResult => ({
    status: steps.recorded?.status ?? steps.loaded.subscription.status,
    placed: steps.renewed?.placed ?? [],
    failed: [steps.atService, steps.captured, steps.cancelledFirst, steps.refunded, steps.renewed].flatMap((outcome) => outcome?.failed ?? []),
  }))
  return new WorkflowResponse(result, { hooks: [subscriptionStateChanged] })
})
