import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { authorizePaymentSessionForOrderWorkflow, cancelOrderWorkflow, completeCartWorkflow } from "@medusajs/medusa/core-flows"
import type { Transaction } from "../../lib/hosted"
import { untrusted } from "../../lib/log"
import type { PeriodState } from "../../modules/tw-subscription/service"
import type TwSubscriptionModuleService from "../../modules/tw-subscription/service"
import type { SubscriptionStatus } from "../../modules/tw-subscription/models/subscription"
import { awaitsFirstCharge, type HostedCheckoutApi, sessionSubscription } from "../../providers/hosted-checkout/public"
import { processTwPaymentWorkflow } from "../process-tw-payment"
import { cancelAtService } from "./cancel-at-service"
import { hostedApi } from "./hosted-api"
import { createRenewalOrder, linkOrder, loadFirstOrder, payRenewalOrder, renewalOrderOf, subscriptionModule } from "./renewal-order"
import { findInServiceList, readService } from "./service-read"
import { CHARGING, observeSubscription, type ObservedPeriod, stablePeriods, subscriptionActions } from "./subscription-state"

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
  /** Periods whose renewal could not be placed (logged; the next run tries again). */
  failed: number[]
}

type Row = Awaited<ReturnType<TwSubscriptionModuleService["retrieveTwSubscription"]>>

/** A lock per subscription, across processes (Redis locking in production): runs never overlap. */
export const subscriptionLockKey = (id: string) => `medusa-payment-tw:subscription:${id}`

/**
 * Brings one subscription in line with the service, from one fresh read:
 * its status and dates, one row per period, the first order linked (and,
 * for a later first charge, captured or cancelled), and one renewal order
 * per paid period after the first. Runs under a lock on the subscription;
 * every effect checks what exists, so any number of runs, from any mix of
 * notifications and the reconciliation, end in the same state.
 */
export async function syncSubscription(container: MedusaContainer, input: SyncInput): Promise<SyncResult> {
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(subscriptionLockKey(input.subscriptionId), () => syncLocked(container, input), { timeout: 60 })
}

async function syncLocked(container: MedusaContainer, input: SyncInput): Promise<SyncResult> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const module = subscriptionModule(container)
  const row = await module.retrieveTwSubscription(input.subscriptionId, { relations: ["periods"] })
  const result: SyncResult = { status: row.status, placed: [], failed: [] }
  if (!row.payment_session_id) {
    return result
  }
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: row.payment_session_id }, { select: ["id", "data", "status"] })
  const data = (session?.data ?? {}) as Record<string, unknown>
  const fromCheckout = sessionSubscription(data)
  const api = hostedApi(container, row.provider_key)
  // A scheduled checkout's create call answered its S number; a monthly one's comes with a notification (a hint).
  const known = { ...row, service_subscription_id: row.service_subscription_id ?? fromCheckout?.hid ?? null }
  let read = await readService(api, known, input.hint, logger)
  if (!read.hid && (row.status === "cancelled" || !session || input.findNumber)) {
    // An ended checkout (or one being cancelled) whose notifications were all lost: the S number from the service's list.
    const heldElsewhere = async (hid: string) => (await module.listTwSubscriptions({ service_subscription_id: hid, id: { $ne: row.id } }, { take: 1, select: ["id"] })).length > 0
    const found = await findInServiceList(api, known, read.transactions, heldElsewhere)
    if (found) {
      read = { ...read, hid: found.id, subscription: await api.client.subscriptions.retrieve(found.id) }
    }
  }
  const counted = observeSubscription(row.amount, read.transactions, read.subscription)
  // Numbered as the store already knows them: a transaction never becomes a second period.
  const observed = { ...counted, periods: stablePeriods(counted.periods, row.periods ?? []) }
  for (const hid of observed.ignored) {
    logger.error(`medusa-payment-tw: transaction ${hid} of subscription ${row.id} is not of its amount (${row.amount} TWD); ignored`)
  }
  const firstChargeLater = !!fromCheckout?.firstChargeLater
  let firstOrder = await orderOfCart(container, row.cart_id)

  // The checkout was paid (or the card bound) but the shopper never came back: place the first order,
  // unless the store ended the subscription first (its money is returned below).
  let current: Pick<Row, "status" | "cancelled_at" | "cancel_reason"> = row
  if (!firstOrder && current.status !== "cancelled" && (observed.periods.some((p) => p.status === "paid") || observed.status === "pending_first_charge")) {
    await placeFirstOrder(container, row, data)
    firstOrder = await orderOfCart(container, row.cart_id)
    // A first order the store could not place (out of stock) ends the subscription.
    current = await module.retrieveTwSubscription(row.id, { select: ["status", "cancelled_at", "cancel_reason"] })
  }

  // Local cancellation is final: a stale read does not undo it, and the service is brought in line below.
  // The store also ends what it can no longer stand for while the service still charges (I3).
  const endsNow = current.status === "cancelled" ? undefined : endReason(observed.status, firstOrder, !!session)
  if (endsNow) {
    current = { status: "cancelled", cancelled_at: new Date(), cancel_reason: endsNow }
    logger.warn(`medusa-payment-tw: subscription ${row.id} ended: ${endsNow}`)
  }
  const ended = current.status === "cancelled"
  const status = ended ? "cancelled" : observed.status
  await module.recordServiceState(
    {
      id: row.id,
      status,
      service_subscription_id: read.hid ?? row.service_subscription_id,
      periods_charged: observed.periodsCharged,
      next_charge_at: observed.nextChargeAt,
      card_last4: observed.cardLast4,
      first_order_id: firstOrder?.id ?? row.first_order_id,
      ...(endsNow ? { cancelled_at: current.cancelled_at, cancel_reason: endsNow } : {}),
    ...(status === "cancelled" && !current.cancelled_at ? { cancelled_at: observed.cancelledAt ?? new Date(), cancel_reason: current.cancel_reason ?? observed.cancelReason } : {}),
      synced_at: new Date(),
    },
    observed.periods.map((period) => periodState(period, firstOrder))
  )
  if (firstOrder && !row.first_order_id) {
    await linkOrder(container, row.id, firstOrder.id)
  }
  const stored = await module.listTwSubscriptionPeriods({ subscription_id: row.id }, { take: null })

  const actions = subscriptionActions(observed, {
    kind: row.kind,
    firstChargeLater,
    firstOrder,
    ordered: new Set(stored.filter((p) => p.order_id && p.order_paid).map((p) => p.period)),
    endedAt: ended ? (current.cancelled_at ?? new Date()) : undefined,
  })
  for (const action of actions) {
    try {
      if (action.kind === "capture-first-order") {
        await captureFirstOrder(container, row, data, action.period)
        await module.updateTwSubscriptionPeriods({ id: periodId(stored, 1), order_id: firstOrder!.id, order_paid: true })
      } else if (action.kind === "cancel-first-order") {
        await cancelOrderWorkflow(container).run({ input: { order_id: firstOrder!.id } })
        logger.info(`medusa-payment-tw: cancelled order ${firstOrder!.id}: the first charge of subscription ${row.id} failed or the subscription ended`)
      } else if (action.kind === "cancel-at-service") {
        const hid = read.hid ?? known.service_subscription_id
        if (hid) {
          await cancelAtService(container, row.provider_key, hid, current.cancel_reason ?? undefined)
          logger.warn(`medusa-payment-tw: cancelled subscription ${hid} at the service: ${row.id} had ended in the store`)
        }
      } else if (action.kind === "refund-period") {
        await refundPeriod(api, action.period, `subscription ${row.id} had ended in the store`)
      } else {
        const tx = read.transactions.find((t) => t.id === action.period.transactionId)!
        const placed = await renewal(container, row, stored, firstOrder!.id, action.period, tx)
        if (placed) {
          result.placed.push(placed)
        }
      }
    } catch (error) {
      const period = "period" in action ? action.period.period : 1
      result.failed.push(period)
      logger.error(`medusa-payment-tw: period ${period} of subscription ${row.id} not settled yet: ${untrusted((error as Error).message, 300)}`)
    }
  }
  return { ...result, status }
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

/** Money of a period nothing in the store stands for: returned, from a fresh read (never twice: the read shows a refund). */
async function refundPeriod(api: HostedCheckoutApi, period: ObservedPeriod, why: string) {
  const observation = await api.observe(period.transactionId)
  if (observation?.paid) {
    await api.refundOrphan(observation, why)
  }
}

const periodId = (stored: Array<{ id: string; period: number }>, period: number) => stored.find((p) => p.period === period)!.id

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

/** Places (or resumes) the renewal order of one paid period; returns its id when this run placed or paid it. */
async function renewal(container: MedusaContainer, row: Row, stored: Array<{ id: string; period: number; order_id: string | null }>, firstOrderId: string, period: ObservedPeriod, tx: Transaction) {
  const module = subscriptionModule(container)
  const rowPeriod = stored.find((p) => p.period === period.period)!
  const sub = { id: row.id, kind: row.kind, provider_key: row.provider_key, payment_session_id: row.payment_session_id!, customer_id: row.customer_id }
  // Keyed on the service's transaction: an order a crashed run created before writing its id here is found again.
  let orderId = rowPeriod.order_id ?? (await renewalOrderOf(container, row.id, period.transactionHid))
  if (!orderId) {
    orderId = await createRenewalOrder(container, sub, await loadFirstOrder(container, firstOrderId), period)
  }
  if (orderId !== rowPeriod.order_id) {
    await module.updateTwSubscriptionPeriods({ id: rowPeriod.id, order_id: orderId })
  }
  await linkOrder(container, row.id, orderId)
  await payRenewalOrder(container, sub, orderId, period, tx)
  await module.updateTwSubscriptionPeriods({ id: rowPeriod.id, order_paid: true })
  container.resolve(ContainerRegistrationKeys.LOGGER).info(`medusa-payment-tw: renewal order ${orderId} for period ${period.period} of subscription ${row.id} (${period.transactionHid})`)
  return orderId
}

interface FirstOrderState {
  id: string
  status: string
  paid: boolean
}

async function orderOfCart(container: MedusaContainer, cartId: string): Promise<FirstOrderState | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  const orderId: string | undefined = links[0]?.order_id
  if (!orderId) {
    return undefined
  }
  const { data } = await query.graph({ entity: "order", fields: ["id", "status", "payment_collections.payments.captured_at"], filters: { id: orderId } })
  const order = data[0] as { id: string; status: string; payment_collections?: Array<{ payments?: Array<{ captured_at: unknown } | null> } | null> } | undefined
  if (!order) {
    return undefined
  }
  const paid = (order.payment_collections ?? []).some((c) => (c?.payments ?? []).some((p) => !!p?.captured_at))
  return { id: order.id, status: order.status, paid }
}

/**
 * The shopper never returned from a paid (or card-binding) page. A page paid
 * at once goes through the payment pipeline (one read, sealed, completes the
 * cart); a later first charge completes the cart awaiting payment.
 */
async function placeFirstOrder(container: MedusaContainer, row: Row, data: Record<string, unknown>) {
  const waiting = awaitsFirstCharge(data)
  if (waiting) {
    const { errors } = await completeCartWorkflow(container).run({ input: { id: row.cart_id }, throwOnError: false })
    if (errors?.length && !(await orderOfCart(container, row.cart_id))) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Cart ${row.cart_id} of subscription ${row.id} could not be completed: ${errors[0].error?.message}`)
    }
    return
  }
  const checkoutId = sessionSubscription(data)?.checkoutId
  if (checkoutId) {
    await processTwPaymentWorkflow(container).run({ input: { provider: row.provider_key, serviceId: checkoutId } })
  }
}

/**
 * Period 1 of a later first charge was paid: its transaction becomes the
 * session's, sealed like the payment pipeline's reads, and the session
 * awaiting payment is authorized for the order (captured, with the order's
 * transaction), as a paid cvs code is.
 */
async function captureFirstOrder(container: MedusaContainer, row: Row, data: Record<string, unknown>, period: ObservedPeriod) {
  const payments = container.resolve(Modules.PAYMENT)
  const api = hostedApi(container, row.provider_key)
  const sessionId = row.payment_session_id!
  const session = await payments.retrievePaymentSession(sessionId, { select: ["id", "amount", "currency_code", "data", "status"] })
  if (session.status !== "pending_authorization") {
    return
  }
  await payments.updatePaymentSession({
    id: sessionId,
    amount: session.amount,
    currency_code: session.currency_code,
    data: {
      ...data,
      transactionId: period.transactionId,
      transactionHid: period.transactionHid,
      status: "charged",
      paidAt: period.paidAt,
      attestation: api.attestor.seal({ sessionId, serviceId: period.transactionId, amount: period.amount, status: "charged" }),
    },
  })
  await authorizePaymentSessionForOrderWorkflow(container).run({ input: { payment_session_id: sessionId } })
}
