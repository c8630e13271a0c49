/**
 * Store versus service, after a chaos run: every payment the service holds for
 * the run's carts, set against the store's sessions, payments and orders.
 * Read from the database and the sandbox's control API, never from the
 * store's own view of the service.
 */
import { embeddedRefunds, HOSTED_PAID, paymentIntents, transactions } from "./sandbox-records"
import type { BenchStore } from "./store"

/** The service's side of one payment, reduced to what the store must agree with. */
export type ServiceState = "paid" | "refunded" | "pending" | "unpaid"
/** The store's side of one order. */
export type OrderState = "captured" | "refunded" | "awaiting" | "canceled"

export interface ServicePayment {
  id: string
  kind: "hosted" | "embedded"
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
  /** Paid at the service, without exactly one captured order or one refund. */
  paidWithoutOneOrderOrRefund: string[]
  /** Orders whose payment state in the store is not the service's. */
  ordersMismatched: string[]
  /** Carts with two payments the service kept (paid, not refunded). */
  doubleCharges: string[]
  /** Paid at the service, not refunded, and the store has no order for it. */
  paidAndForgotten: string[]
  carts: Map<string, CartState>
}

export const divergenceTotal = (r: DivergenceReport) => r.paidWithoutOneOrderOrRefund.length + r.ordersMismatched.length + r.doubleCharges.length + r.paidAndForgotten.length

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

async function servicePayments(store: BenchStore): Promise<ServicePayment[]> {
  const [txs, intents, refunds] = await Promise.all([transactions(store), paymentIntents(store), embeddedRefunds(store)])
  const refundedOf = new Map<string, number>()
  for (const refund of refunds.filter((r) => r.status !== "failed")) {
    refundedOf.set(refund.paymentIntentId, (refundedOf.get(refund.paymentIntentId) ?? 0) + refund.amount)
  }
  const hosted = txs.map((tx): ServicePayment => {
    const everPaid = HOSTED_PAID.has(tx.status)
    const refunded = everPaid && (tx.refundAmount ?? 0) >= tx.amount
    const state: ServiceState = refunded ? "refunded" : everPaid ? "paid" : tx.status === "charging" ? "pending" : "unpaid"
    return { id: tx.id, kind: "hosted", sessionId: tx.customId, everPaid, state }
  })
  const embedded = intents.map((intent): ServicePayment => {
    const everPaid = intent.status === "succeeded"
    const refunded = everPaid && (refundedOf.get(intent.id) ?? 0) >= intent.amount
    const state: ServiceState = refunded ? "refunded" : everPaid ? "paid" : intent.status === "processing" ? "pending" : "unpaid"
    const sessionId = intent.metadata?.session_id
    return { id: intent.id, kind: "embedded", sessionId: typeof sessionId === "string" ? sessionId : undefined, everPaid, state }
  })
  return [...hosted, ...embedded]
}

export async function compareStoreAndService(store: BenchStore, cartIds: string[]): Promise<DivergenceReport> {
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

  const report: DivergenceReport = { paidWithoutOneOrderOrRefund: [], ordersMismatched: [], doubleCharges: [], paidAndForgotten: [], carts }
  for (const payment of await servicePayments(store)) {
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
      const service = recorded ?? cart.payments[cart.payments.length - 1]
      const serviceState: ServiceState = service?.state ?? "unpaid"
      if (!MATCHES[cart.order.state].includes(serviceState)) {
        report.ordersMismatched.push(`${cart.order.id} (cart ${cart.cartId}): store ${cart.order.state}, service ${serviceState}${service ? ` (${service.id})` : ""}`)
      }
    }
  }
  return report
}
