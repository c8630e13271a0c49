/**
 * Store versus service, after a chaos run: every payment the service holds for
 * the run's carts, set against the store's sessions, payments and orders, and
 * the invariants of issue 21 (I1-I6) counted as divergences. Read from the
 * database and the sandbox's control API, never from the store's own view of the service.
 */
import { deliveriesSuppressed, type RenewalOrderRow, renewalsNotOne, savedCardMisuse, subscriptionsOutliving } from "./account-invariants"
import { embeddedRefunds, HOSTED_PAID, isRenewal, paymentIntents, type ServiceTransaction, serviceSubscriptions, sessionOf, transactions } from "./sandbox-records"
import type { BenchStore } from "./store"

/** The service's side of one payment, reduced to what the store must agree with. */
export type ServiceState = "paid" | "refunded" | "pending" | "unpaid"
/** The store's side of one order. */
export type OrderState = "captured" | "refunded" | "awaiting" | "canceled"

export interface ServicePayment {
  id: string
  kind: "hosted" | "embedded"
  /** cvs and atm money cannot go back by API: the merchant remits it. */
  remitted: boolean
  sessionId?: string
  cartId?: string
  /** Money reached the merchant at some point. */
  everPaid: boolean
  state: ServiceState
}

export interface CartState {
  cartId: string
  order?: { id: string; state: OrderState }
  /** Orders linked to the cart (more than one would be a bug of its own). */
  liveOrders: number
  payments: ServicePayment[]
}

export interface DivergenceReport {
  /** I1: paid at the service, without exactly one captured order or one refund. */
  paidWithoutOneOrderOrRefund: string[]
  /** I1: carts with two payments the service kept (paid, not refunded). */
  doubleCharges: string[]
  /** I1: paid at the service, not refunded, and the store has no order for it. */
  paidAndForgotten: string[]
  /** I2: Medusa payments captured while the service's money is not there (unpaid, or refunded with no refund in Medusa). */
  capturedWithoutMoney: string[]
  /** I2: orders whose payment state in the store is not the service's. */
  ordersMismatched: string[]
  /** I3: service subscriptions still charging whose store subscription ended or has no first order. */
  subscriptionsOutliving: string[]
  /** I4: saved-card charges on another customer's cart or twice for one session, and sessions the store should have refused. */
  savedCardMisuse: string[]
  /** I5: paid periods without exactly one captured renewal order, and periods with two. */
  renewalsNotOne: string[]
  /** I6: real deliveries accepted but not handled, after a forged one for the same transaction. */
  deliveriesSuppressed: string[]
  /** Not a divergence: cvs/atm money paid after its order was cancelled, captured on it until the merchant remits it back. */
  awaitingRemittance: string[]
  carts: Map<string, CartState>
}

export type DivergenceKey = Exclude<keyof DivergenceReport, "carts" | "awaitingRemittance">

/** Each count under the invariant it breaks, as the report prints them. */
export const DIVERGENCES: Array<[invariant: string, key: DivergenceKey, label: string]> = [
  ["I1", "paidWithoutOneOrderOrRefund", "paid at the service without exactly one captured order or one refund"],
  ["I1", "doubleCharges", "double charges (two paid, unrefunded payments for one cart)"],
  ["I1", "paidAndForgotten", "paid and forgotten (paid at the service, no order in the store)"],
  ["I2", "capturedWithoutMoney", "captured in Medusa while unpaid or refunded at the service (no refund in Medusa)"],
  ["I2", "ordersMismatched", "orders whose payment state does not match the service"],
  ["I3", "subscriptionsOutliving", "service subscriptions live whose store subscription ended or has no first order"],
  ["I4", "savedCardMisuse", "saved cards charged for another's cart or twice per session, or put on another's cart"],
  ["I5", "renewalsNotOne", "paid periods without exactly one captured renewal order, or with two"],
  ["I6", "deliveriesSuppressed", "real deliveries accepted but not handled after a forged one"],
]

export const divergenceTotal = (r: DivergenceReport) => DIVERGENCES.reduce((sum, [, key]) => sum + r[key].length, 0)

/** What the run adds to the database's view: the shoppers' own findings, the forged transactions and the proxy's record of deliveries. */
export interface RunFacts {
  cartIds: string[]
  findings: Array<{ invariant: "I4" | "I6"; line: string }>
  forged: Array<{ cartId: string; transactionId: string }>
  acceptedOf: (serviceId: string) => Array<{ kind: string; at: number }>
}

const MATCHES: Record<OrderState, ServiceState[]> = {
  captured: ["paid"],
  refunded: ["refunded"],
  awaiting: ["pending"],
  // A cancelled order is right when the money never came or went back.
  canceled: ["unpaid", "refunded"],
}

interface SessionRow {
  id: string
  cart_id: string
}
interface OrderRow {
  cart_id: string
  id: string
  status: string
}
interface PaymentRow {
  payment_session_id: string
  cart_id: string
  amount: string
  captured_at: Date | null
  canceled_at: Date | null
  refunded: string
}

async function servicePayments(store: BenchStore, txs: ServiceTransaction[]): Promise<ServicePayment[]> {
  const [intents, refunds] = await Promise.all([paymentIntents(store), embeddedRefunds(store)])
  const refundedOf = new Map<string, number>()
  for (const refund of refunds.filter((r) => r.status !== "failed")) {
    refundedOf.set(refund.paymentIntentId, (refundedOf.get(refund.paymentIntentId) ?? 0) + refund.amount)
  }
  // A renewal's money belongs to its renewal order (I5), not to the checkout's cart.
  const hosted = txs.filter((tx) => !isRenewal(tx)).map((tx): ServicePayment => {
    const everPaid = HOSTED_PAID.has(tx.status)
    const refunded = everPaid && (tx.refundAmount ?? 0) >= tx.amount
    const state: ServiceState = refunded ? "refunded" : everPaid ? "paid" : tx.status === "charging" ? "pending" : "unpaid"
    return { id: tx.id, kind: "hosted", remitted: tx.paymentMethod === "cvs" || tx.paymentMethod === "atm", sessionId: sessionOf(tx), everPaid, state }
  })
  const embedded = intents.map((intent): ServicePayment => {
    const everPaid = intent.status === "succeeded"
    const refunded = everPaid && (refundedOf.get(intent.id) ?? 0) >= intent.amount
    const state: ServiceState = refunded ? "refunded" : everPaid ? "paid" : intent.status === "processing" ? "pending" : "unpaid"
    const sessionId = intent.metadata?.session_id
    return { id: intent.id, kind: "embedded", remitted: false, sessionId: typeof sessionId === "string" ? sessionId : undefined, everPaid, state }
  })
  return [...hosted, ...embedded]
}

export async function compareStoreAndService(store: BenchStore, facts: RunFacts): Promise<DivergenceReport> {
  const { cartIds } = facts
  const txs = await transactions(store)
  // Deleted sessions too: a payment made on a replaced session must still be accounted for.
  const sessions = await store.sql<SessionRow>(
    `select ps.id, cpc.cart_id from payment_session ps
       join cart_payment_collection cpc on cpc.payment_collection_id = ps.payment_collection_id
      where cpc.cart_id = any($1)`,
    [cartIds]
  )
  const orders = await store.sql<OrderRow>(
    `select oc.cart_id, o.id, o.status from order_cart oc join "order" o on o.id = oc.order_id
      where oc.cart_id = any($1) and oc.deleted_at is null and o.deleted_at is null`,
    [cartIds]
  )
  const payments = await store.sql<PaymentRow>(
    `select p.payment_session_id, cpc.cart_id, p.amount, p.captured_at, p.canceled_at,
            (select coalesce(sum(r.amount), 0) from refund r where r.payment_id = p.id and r.deleted_at is null) as refunded
       from payment p join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id
      where cpc.cart_id = any($1) and p.deleted_at is null`,
    [cartIds]
  )
  const cartOfSession = new Map(sessions.map((s) => [s.id, s.cart_id]))
  const paymentOfSession = new Map(payments.map((p) => [p.payment_session_id, p]))
  const carts = new Map<string, CartState>(cartIds.map((cartId) => [cartId, { cartId, liveOrders: 0, payments: [] }]))
  for (const order of orders) {
    const cart = carts.get(order.cart_id)!
    cart.liveOrders++
    const captured = payments.filter((p) => p.cart_id === order.cart_id && p.captured_at && !p.canceled_at)
    const refunded = captured.some((p) => Number(p.refunded) >= Number(p.amount))
    const state: OrderState = order.status === "canceled" ? "canceled" : refunded ? "refunded" : captured.length ? "captured" : "awaiting"
    cart.order = { id: order.id, state }
  }

  const report: DivergenceReport = {
    paidWithoutOneOrderOrRefund: [],
    doubleCharges: [],
    paidAndForgotten: [],
    capturedWithoutMoney: [],
    ordersMismatched: [],
    subscriptionsOutliving: [],
    savedCardMisuse: [],
    renewalsNotOne: [],
    deliveriesSuppressed: [],
    awaitingRemittance: [],
    carts,
  }
  const service = await servicePayments(store, txs)
  for (const payment of service) {
    const cartId = payment.sessionId ? cartOfSession.get(payment.sessionId) : undefined
    if (!cartId) {
      // The run's sandbox holds only the run's payments: a paid one whose session left no trace is forgotten.
      if (payment.state === "paid") {
        report.paidAndForgotten.push(`${payment.id} (session ${payment.sessionId ?? "unknown"} not in the store)`)
        report.paidWithoutOneOrderOrRefund.push(`${payment.id} (no session in the store)`)
      }
      continue
    }
    payment.cartId = cartId
    const cart = carts.get(cartId)!
    cart.payments.push(payment)
    if (payment.state !== "paid") {
      continue
    }
    const own = paymentOfSession.get(payment.sessionId!)
    if (payment.remitted && cart.order?.state === "canceled" && own?.captured_at && !own.canceled_at) {
      report.awaitingRemittance.push(`${payment.id} (cart ${cartId}, order ${cart.order.id})`)
      continue
    }
    const capturedOrder = cart.liveOrders === 1 && cart.order?.state !== "canceled" && !!own?.captured_at && !own.canceled_at
    if (!capturedOrder) {
      report.paidWithoutOneOrderOrRefund.push(`${payment.id} (cart ${cartId}: ${cart.liveOrders} order(s)${cart.order ? `, ${cart.order.state}` : ""}, store payment ${own ? (own.captured_at ? "captured" : "not captured") : "none"})`)
    }
    if (!cart.liveOrders) {
      report.paidAndForgotten.push(`${payment.id} (cart ${cartId})`)
    }
  }
  for (const cart of carts.values()) {
    const kept = cart.payments.filter((p) => p.state === "paid")
    if (kept.length > 1) {
      report.doubleCharges.push(`${cart.cartId}: ${kept.map((p) => p.id).join(", ")}`)
    }
    if (cart.order) {
      // The payment the order stands on: the one the store recorded, else the newest at the service.
      const recorded = cart.payments.find((p) => p.sessionId && paymentOfSession.has(p.sessionId))
      const standing = recorded ?? cart.payments[cart.payments.length - 1]
      const serviceState: ServiceState = standing?.state ?? "unpaid"
      if (cart.order.state === "canceled" && report.awaitingRemittance.some((line) => line.includes(`order ${cart.order!.id})`))) {
        continue
      }
      if (!MATCHES[cart.order.state].includes(serviceState)) {
        report.ordersMismatched.push(`${cart.order.id} (cart ${cart.cartId}): store ${cart.order.state}, service ${serviceState}${standing ? ` (${standing.id})` : ""}`)
      }
    }
  }
  report.capturedWithoutMoney.push(...capturedWithoutMoney(payments, service))
  await accountInvariants(store, report, txs, facts)
  return report
}

/** I2 per Medusa payment: captured, so the service must hold its money, or the refund must be in Medusa too. */
function capturedWithoutMoney(payments: PaymentRow[], service: ServicePayment[]): string[] {
  return payments
    .filter((p) => p.captured_at && !p.canceled_at)
    .flatMap((p) => {
      const mine = service.filter((s) => s.sessionId === p.payment_session_id)
      if (mine.some((s) => s.state === "paid")) {
        return []
      }
      if (mine.some((s) => s.state === "refunded") && Number(p.refunded) >= Number(p.amount)) {
        return []
      }
      const states = mine.map((s) => `${s.id} ${s.state}`).join(", ") || "no service payment"
      return [`${mine[0]?.id ?? p.payment_session_id} (cart ${p.cart_id}): captured in Medusa, refunded there ${p.refunded}/${p.amount}; service: ${states}`]
    })
}

async function accountInvariants(store: BenchStore, report: DivergenceReport, txs: ServiceTransaction[], facts: RunFacts) {
  const [subscriptions, rows, charges, renewalOrders] = await Promise.all([
    serviceSubscriptions(store),
    store.sql<{ id: string; status: string; first_order_id: string | null; service_subscription_id: string | null; payment_session_id: string | null }>(
      `select id, status, first_order_id, service_subscription_id, payment_session_id from tw_subscription where deleted_at is null`
    ),
    store.sql<{ payment_session_id: string; card_customer_id: string | null; cart_id: string | null; cart_customer_id: string | null }>(
      `select ch.payment_session_id, sc.customer_id as card_customer_id, c.id as cart_id, c.customer_id as cart_customer_id
         from tw_saved_card_charge ch left join tw_saved_card sc on sc.id = ch.saved_card_id
         left join payment_session ps on ps.id = ch.payment_session_id
         left join cart_payment_collection cpc on cpc.payment_collection_id = ps.payment_collection_id
         left join cart c on c.id = cpc.cart_id
        where ch.deleted_at is null`
    ),
    store.sql<RenewalOrderRow>(
      `select o.id, o.status, o.metadata->>'tw_subscription_id' as subscription_id, o.metadata->>'tw_subscription_period' as period,
              o.metadata->>'tw_transaction_hid' as transaction_hid,
              coalesce((select sum(p.amount) from order_payment_collection opc join payment p on p.payment_collection_id = opc.payment_collection_id
                         where opc.order_id = o.id and opc.deleted_at is null and p.deleted_at is null and p.captured_at is not null and p.canceled_at is null), 0) as captured,
              coalesce((select sum(r.amount) from order_payment_collection opc join payment p on p.payment_collection_id = opc.payment_collection_id
                         join refund r on r.payment_id = p.id and r.deleted_at is null
                         where opc.order_id = o.id and opc.deleted_at is null and p.deleted_at is null), 0) as refunded
         from "order" o where o.deleted_at is null and o.metadata->>'tw_transaction_hid' is not null`
    ),
  ])
  report.subscriptionsOutliving.push(...subscriptionsOutliving(subscriptions, txs, rows))
  report.savedCardMisuse.push(...savedCardMisuse(txs, charges), ...facts.findings.filter((f) => f.invariant === "I4").map((f) => f.line))
  report.renewalsNotOne.push(...renewalsNotOne(txs, renewalOrders))
  report.deliveriesSuppressed.push(...(await deliveriesSuppressed(store, facts.forged, facts.acceptedOf)), ...facts.findings.filter((f) => f.invariant === "I6").map((f) => f.line))
}
