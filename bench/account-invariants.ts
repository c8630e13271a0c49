/**
 * The invariants of issue 21 that reach past one cart, read from the
 * database and the sandbox's control API after a chaos run:
 * I3 no service subscription outlives the store's, I4 saved cards charged
 * only for their own customer's cart and once per session, I5 one renewal
 * order per paid period, I6 a real delivery handled although a forged one came first.
 */
import { HOSTED_PAID, isRenewal, type ServiceSubscription, type ServiceTransaction, sessionOf } from "./sandbox-records"
import type { BenchStore } from "./store"

/** Service subscriptions that can still charge. */
const SERVICE_LIVE = new Set(["active", "trialing", "retrying"])
/** Store subscriptions under which the service's may charge (a later first charge has no order yet). */
const STORE_LIVE = new Set(["pending_first_charge", "active", "retrying"])
/** A real delivery the store accepted should have its order within this long (a handled one takes seconds). */
export const HANDLED_WITHIN_MS = 30_000

const refundedInFull = (tx: ServiceTransaction) => (tx.refundAmount ?? 0) >= tx.amount

export function subscriptionsOutliving(
  subscriptions: ServiceSubscription[],
  txs: ServiceTransaction[],
  rows: Array<{ id: string; status: string; first_order_id: string | null; service_subscription_id: string | null; payment_session_id: string | null }>
): string[] {
  const byHid = new Map(rows.filter((r) => r.service_subscription_id).map((r) => [r.service_subscription_id!, r]))
  const bySession = new Map(rows.filter((r) => r.payment_session_id).map((r) => [r.payment_session_id!, r]))
  return subscriptions
    .filter((s) => SERVICE_LIVE.has(s.status))
    .flatMap((s) => {
      const session = txs.map((tx) => (tx.subscriptionId === s.id ? sessionOf(tx) : undefined)).find(Boolean)
      const row = byHid.get(s.id) ?? (session ? bySession.get(session) : undefined)
      if (!row) {
        return [`${s.id} (service ${s.status}): no subscription in the store`]
      }
      if (!STORE_LIVE.has(row.status) || !row.first_order_id) {
        return [`${s.id} (service ${s.status}): store subscription ${row.id} ${row.status}${row.first_order_id ? "" : ", no first order"}`]
      }
      return []
    })
}

export function savedCardMisuse(
  txs: ServiceTransaction[],
  charges: Array<{ payment_session_id: string; card_customer_id: string | null; cart_id: string | null; cart_customer_id: string | null }>
): string[] {
  const lines: string[] = []
  const paidPerSession = new Map<string, ServiceTransaction[]>()
  for (const tx of txs.filter((t) => t.origin === "tokenCharge" && HOSTED_PAID.has(t.status))) {
    const session = sessionOf(tx) ?? "unknown"
    paidPerSession.set(session, [...(paidPerSession.get(session) ?? []), tx])
    const row = charges.find((c) => c.payment_session_id === session)
    if (!row) {
      lines.push(`${tx.id} (session ${session}): a saved card charged with no charge record in the store`)
    } else if (!row.cart_customer_id || row.cart_customer_id !== row.card_customer_id) {
      lines.push(`${tx.id} (cart ${row.cart_id}): card of customer ${row.card_customer_id} charged for a cart of ${row.cart_customer_id ?? "a guest"}`)
    }
  }
  for (const [session, paid] of paidPerSession) {
    if (paid.length > 1) {
      lines.push(`${paid[0].id} (session ${session}): charged ${paid.length} times (${paid.map((t) => t.id).join(", ")})`)
    }
  }
  return lines
}

export interface RenewalOrderRow {
  id: string
  status: string
  subscription_id: string | null
  period: string | null
  transaction_hid: string | null
  captured: string
  refunded: string
}

export function renewalsNotOne(txs: ServiceTransaction[], orders: RenewalOrderRow[]): string[] {
  const lines: string[] = []
  const live = orders.filter((o) => o.status !== "canceled")
  const ofHid = (hid: string) => live.filter((o) => o.transaction_hid === hid)
  const renewals = txs.filter(isRenewal)
  for (const tx of renewals.filter((t) => HOSTED_PAID.has(t.status))) {
    const mine = ofHid(tx.transactionHid)
    const kept = mine.filter((o) => Number(o.captured) > 0 && Number(o.refunded) < Number(o.captured))
    if (refundedInFull(tx)) {
      if (kept.length) {
        lines.push(`${tx.id} (${tx.subscriptionId} period ${tx.period}): refunded at the service, renewal order ${kept.map((o) => o.id).join(", ")} captured`)
      }
    } else if (mine.length !== 1 || kept.length !== 1) {
      lines.push(`${tx.id} (${tx.subscriptionId} period ${tx.period}): paid, ${mine.length} live renewal order(s), ${kept.length} captured`)
    }
  }
  const perPeriod = new Map<string, string[]>()
  for (const order of live) {
    const key = `${order.subscription_id} period ${order.period}`
    perPeriod.set(key, [...(perPeriod.get(key) ?? []), order.id])
  }
  for (const [key, ids] of perPeriod) {
    if (ids.length > 1) {
      lines.push(`${ids[0]} (${key}): ${ids.length} live renewal orders (${ids.join(", ")})`)
    }
  }
  const paidHids = new Set(renewals.filter((t) => HOSTED_PAID.has(t.status)).map((t) => t.transactionHid))
  for (const order of live.filter((o) => Number(o.captured) > 0 && !paidHids.has(o.transaction_hid ?? ""))) {
    lines.push(`${order.id} (${order.subscription_id} period ${order.period}): captured renewal order for a period the service never charged (${order.transaction_hid})`)
  }
  return lines
}

/** Forged-first carts whose real `charged` delivery the store accepted, yet whose order did not follow within HANDLED_WITHIN_MS. */
export async function deliveriesSuppressed(
  store: BenchStore,
  forged: Array<{ cartId: string; transactionId: string }>,
  acceptedOf: (serviceId: string) => Array<{ kind: string; at: number }>
): Promise<string[]> {
  if (!forged.length) {
    return []
  }
  const orders = await store.sql<{ cart_id: string; created_at: Date }>(
    `select oc.cart_id, min(o.created_at) as created_at from order_cart oc join "order" o on o.id = oc.order_id
      where oc.cart_id = any($1) and oc.deleted_at is null group by oc.cart_id`,
    [forged.map((f) => f.cartId)]
  )
  return forged.flatMap(({ cartId, transactionId }) => {
    const real = acceptedOf(transactionId).find((a) => a.kind === "charge:charged")
    if (!real) {
      return [] // dropped or refused on the way: the reconciliation's job, counted under I1
    }
    const order = orders.find((o) => o.cart_id === cartId)
    const late = order ? order.created_at.getTime() - real.at : undefined
    if (late !== undefined && late <= HANDLED_WITHIN_MS) {
      return []
    }
    return [
      `${transactionId} (cart ${cartId}): the real charged delivery was accepted at ${new Date(real.at).toISOString()}, ` +
        (late === undefined ? "no order" : `the order came ${(late / 1000).toFixed(0)} s later`),
    ]
  })
}
