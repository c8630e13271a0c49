import { PaymentActions } from "@medusajs/framework/utils"
import type { PaymentObservation } from "../../../providers/core/payment-api"

/** The store's side of a payment session, as the pipeline needs it. */
export interface SessionState {
  id: string
  /** Whole TWD; undefined when the session is in another currency. */
  amount: number | undefined
  status: string
  data: Record<string, unknown>
  /** Another session of the collection, or its payment, already holds the money. */
  paidElsewhere?: string
  /** Another session of the collection awaits its payment (a code issued, an intent processing). */
  awaitingElsewhere?: string
  /** The Medusa payment of this session, once authorized. */
  payment?: { id: string; canceled: boolean }
  cartId?: string
  order?: { id: string; status: string }
}

/**
 * When the session a paid read names is gone: the order of the cart the payment
 * was started for (a hosted page's `orderId`), and what its collection holds.
 */
export interface CartOrderState {
  id: string
  status: string
  collectionId: string
  /** Whole TWD; undefined when the collection is in another currency. */
  amount: number | undefined
  /** The service ids of the collection's live payments. */
  paidWith: string[]
}

export type Decision =
  | { kind: "ignore"; reason: string; level: "debug" | "warn" | "error" }
  | { kind: "refund-orphan"; why: string }
  /** Record the payment on the open order that awaited it, through a session opened for it (`sessions/adopted-session.ts`). */
  | { kind: "adopt"; orderId: string; collectionId: string; why: string }
  | {
      kind: "apply"
      /** Keep the facts (and the sealed read) on the session. */
      record: boolean
      /** Place the order: complete the cart. */
      completeCart: boolean
      /** Record the payment of an order already placed (or of a collection without a cart). */
      authorizeSession: boolean
      /** Cancel the order placed while waiting for this payment. */
      cancelOrder: boolean
      /** Why, for the log, when it is not that the payment failed or expired. */
      cancelReason?: string
      /** What the merchant must do about it, logged as an error. */
      notice?: string
      /**
       * The order was placed by a completion cut short, which may have died before it reserved the order's
       * stock: reserve what it lacks before recording the payment (or, with the stock gone, cancel and refund).
       */
      reserveStock?: boolean
    }

const ignore = (reason: string, level: "debug" | "warn" | "error" = "debug"): Decision => ({ kind: "ignore", reason, level })
const apply = (changes: Partial<Omit<Extract<Decision, { kind: "apply" }>, "kind">>): Decision => ({
  kind: "apply",
  record: false,
  completeCart: false,
  authorizeSession: false,
  cancelOrder: false,
  ...changes,
})

/**
 * A payment of a subscription's checkout session other than the page's own
 * transaction: a later period (or a later first charge), which the
 * subscription workflow records from its own read. The payment pipeline does
 * nothing with it, whether it learnt the id from a read or from a
 * notification (then without reading: see `leftToSubscription`).
 */
export function isSubscriptionPeriod(sessionData: Record<string, unknown>, serviceId: string): boolean {
  const subscription = sessionData.subscription as { checkoutId?: unknown } | undefined
  return !!subscription?.checkoutId && subscription.checkoutId !== serviceId
}

/** A paid convenience-store code or bank transfer: the service returns it only by remittance to the shopper's account. */
const refundedByRemittance = (observation: PaymentObservation) => observation.facts.paymentMethod === "cvs" || observation.facts.paymentMethod === "atm"

/** Nothing was paid and nothing is on its way: a page or intent still waiting for a card. */
const neverPaid = ({ paid, action }: PaymentObservation) => !paid && (action === PaymentActions.REQUIRES_MORE || action === PaymentActions.NOT_SUPPORTED)

/**
 * An order of the session's cart that no payment stands on, while no other
 * session of the collection holds or awaits one. Read under the cart's lock, so
 * no completion is still running: core's completion placed the order and was
 * cut short (a crash) before it recorded the payment or undid the order.
 */
const cutShortOrder = (session: SessionState, livePayment: boolean | undefined) =>
  !!session.order && session.order.status !== "canceled" && !livePayment && !session.paidElsewhere && !session.awaitingElsewhere

/**
 * Money paid for a session that was deleted anyway (a race with a new session, an older version of the
 * plugin): the order of its cart, still open, unpaid and of the same amount, was waiting for it and gets it.
 * Otherwise it goes back.
 */
function sessionGone(observation: PaymentObservation, order: CartOrderState | undefined): Decision {
  const gone = `its session ${observation.sessionId} no longer exists`
  if (!order || order.status === "canceled" || observation.returned) {
    return { kind: "refund-orphan", why: gone }
  }
  if (order.paidWith.includes(observation.serviceId)) {
    return ignore(`${observation.label} is already recorded on order ${order.id}`)
  }
  return !order.paidWith.length && order.amount === observation.amount
    ? { kind: "adopt", orderId: order.id, collectionId: order.collectionId, why: `${gone}, and order ${order.id} awaited its payment` }
    : { kind: "refund-orphan", why: `${gone}, and order ${order.id} ${order.paidWith.length ? "is paid another way" : `totals ${order.amount ?? "another currency"}, not ${observation.amount} TWD`}` }
}

/**
 * What the store does about one fresh read of the service, given the session
 * it claims. Pure, so every row is unit-tested; the workflow only carries it
 * out. Every branch is idempotent: reading the same state twice decides
 * nothing new the second time, and money that reached a session the store no
 * longer uses is returned, unless its cart's order still awaits that very
 * payment: then it is recorded there.
 */
export function decide(observation: PaymentObservation | undefined, session: SessionState | undefined, idField: string, cartOrder?: CartOrderState): Decision {
  if (!observation) {
    return ignore("the service does not know it", "warn")
  }
  const { label, paid } = observation
  if (!observation.sessionId?.startsWith("payses_")) {
    return ignore(`${label} was not created by this store`, "warn")
  }
  if (!session) {
    return paid ? sessionGone(observation, cartOrder) : ignore(`${label}: its session is gone`)
  }
  if (isSubscriptionPeriod(session.data, observation.serviceId)) {
    return ignore(`${label} is a period of the subscription of session ${session.id}`)
  }
  if (session.data.savedCard && session.data[idField] !== observation.serviceId) {
    // A saved card's charge is recorded on its session by the charge itself or by settling its charge record
    // (workflows/saved-cards): a read that the session does not hold yet is not an orphan.
    return ignore(`${label}: the charge of saved-card session ${session.id} is settled from its charge record`)
  }
  if (session.data[idField] !== observation.serviceId) {
    return paid
      ? { kind: "refund-orphan", why: `session ${session.id} had moved on to another payment` }
      : ignore(`${label}: session ${session.id} does not hold it`, "warn")
  }
  if (session.amount !== observation.amount) {
    return ignore(`${label} (${observation.amount} TWD) does not match session ${session.id}; nothing done`, "error")
  }
  if (paid && session.paidElsewhere) {
    return { kind: "refund-orphan", why: `its payment collection was already paid through ${session.paidElsewhere}` }
  }
  const livePayment = session.payment && !session.payment.canceled
  /** The session already shows this state: writing it again would be no news. */
  const known = session.data.status === observation.status
  /** The session records money given back (the pipeline's read after the store's own refund). */
  const refundRecorded = Number(session.data.refundAmount ?? 0) > 0
  if (cutShortOrder(session, livePayment) && (observation.returned || neverPaid(observation))) {
    return apply({
      record: !known,
      cancelOrder: true,
      cancelReason: `${observation.returned ? "was given back" : "was never made"}, and the completion that placed the order was cut short`,
    })
  }
  if (paid && observation.returned && !livePayment) {
    // Paid, then given back (the store could not place the order, or the merchant refunded it at the service):
    // sealing this read would let the job's run or the shopper's completion place an order on it. Only a
    // refund the session has not recorded (not the store's own) is worth a warning.
    return ignore(`${label} was paid and given back; no order is placed on it`, refundRecorded ? "debug" : "warn")
  }
  if (paid && refundRecorded && !Number(observation.facts.refundAmount ?? 0)) {
    // A read taken before the lock, while the run holding it returned the money (the store could not place
    // the order) and recorded the refund it read afterwards: sealing this read would let a completion place
    // an order on money given back. The session keeps the later read; the next read settles anything new.
    return ignore(`${label}: read before the refund session ${session.id} records; nothing done`, "warn")
  }
  switch (observation.action) {
    case PaymentActions.SUCCESSFUL:
    case PaymentActions.AUTHORIZED:
      if (livePayment) {
        return ignore(`${label} is already recorded on session ${session.id}`)
      }
      if (session.order?.status === "canceled") {
        // An orphan: the order it paid for is gone. Card and wallet money goes back at once; cvs/atm money
        // can only go back to a bank account the shopper gives, so it is recorded on the cancelled order,
        // whose payment the merchant refunds with the account (order page widget or remittance route).
        return refundedByRemittance(observation)
          ? apply({
              record: true,
              authorizeSession: true,
              notice:
                `${label} was paid by ${String(observation.facts.paymentMethod)} for order ${session.order.id}, which is cancelled: ` +
                `the payment is recorded on that order; ask the shopper for a bank account and refund it from order ${session.order.id}`,
            })
          : { kind: "refund-orphan", why: `its order ${session.order.id} was cancelled` }
      }
      return apply({
        record: true,
        completeCart: !!session.cartId && !session.order,
        authorizeSession: !!session.order || !session.cartId,
        // An order placed awaiting this payment has its session in `pending_authorization`; any other was placed
        // by a completion cut short.
        reserveStock: !!session.order && session.status !== "pending_authorization",
      })
    case PaymentActions.PENDING_AUTHORIZATION: {
      const completeCart = !!session.cartId && !session.order
      // The completion needs a fresh sealed read; otherwise only a new state is worth writing.
      const record = !livePayment && (completeCart || !known)
      return record || completeCart ? apply({ record, completeCart }) : ignore(`${label} awaits payment, as already recorded on session ${session.id}`)
    }
    case PaymentActions.FAILED:
    case PaymentActions.CANCELED: {
      const cancelOrder = !!session.order && !livePayment && session.order.status !== "canceled"
      const record = !livePayment && !known
      return record || cancelOrder ? apply({ record, cancelOrder }) : ignore(`${label} is ${observation.status}, as already recorded on session ${session.id}`)
    }
    default:
      // Nothing to do for the order; a new state is still worth keeping (the storefront shows it, and a
      // session refunded because the store could not fulfil it stops being read again).
      return !livePayment && !known ? apply({ record: true }) : ignore(`${label} is ${observation.status}: nothing to do yet`)
  }
}
