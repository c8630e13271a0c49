import { PaymentActions } from "@medusajs/framework/utils"
import type { PaymentObservation } from "../../../../providers/core/payment-api"
import { type CartOrderState, decide, type SessionState } from "../payment-decision"

const read = (changes: Partial<PaymentObservation> = {}): PaymentObservation => ({
  serviceId: "tx_1",
  label: "transaction P1",
  sessionId: "payses_1",
  amount: 500,
  status: "charged",
  action: PaymentActions.SUCCESSFUL,
  paid: true,
  returned: false,
  facts: { status: "charged" },
  ...changes,
})
const session = (changes: Partial<SessionState> = {}): SessionState => ({
  id: "payses_1",
  amount: 500,
  status: "pending",
  data: { transactionId: "tx_1" },
  cartId: "cart_1",
  ...changes,
})
const failed = { status: "failed", action: PaymentActions.FAILED, paid: false }
const issued = { status: "charging", action: PaymentActions.PENDING_AUTHORIZATION, paid: false }
const unpaid = { status: "initiated", action: PaymentActions.REQUIRES_MORE, paid: false }
const placed = { id: "order_1", status: "pending" }
/** Session data that already records the unpaid page. */
const seen = { transactionId: "tx_1", status: "initiated" }
const apply = (changes: object) => ({ kind: "apply", record: false, completeCart: false, authorizeSession: false, cancelOrder: false, ...changes })

describe("decide: what one fresh read means for the store", () => {
  it.each<[string, PaymentObservation | undefined, SessionState | undefined, object]>([
    // Not ours, or nothing to hold on to.
    ["unknown to the service", undefined, session(), { kind: "ignore", level: "warn" }],
    ["not created by this store", read({ sessionId: "order-77" }), session(), { kind: "ignore", level: "warn" }],
    ["session gone, unpaid", read(failed), undefined, { kind: "ignore", level: "debug" }],
    ["session holds another payment, unpaid", read(failed), session({ data: { transactionId: "tx_2" } }), { kind: "ignore", level: "warn" }],
    ["another amount", read(), session({ amount: 501 }), { kind: "ignore", level: "error" }],
    ["a session in another currency", read(), session({ amount: undefined }), { kind: "ignore", level: "error" }],
    // Money that no session of the store uses goes back.
    ["session gone, paid", read(), undefined, { kind: "refund-orphan", why: expect.stringContaining("no longer exists") }],
    ["session moved on, paid", read(), session({ data: { transactionId: "tx_2" } }), { kind: "refund-orphan", why: expect.stringContaining("moved on") }],
    // A subscription's later periods are never refunded as orphans: the subscription workflow records them.
    ["a later period of a subscription", read(), session({ data: { transactionId: "tx_0", subscription: { checkoutId: "tx_0" } } }), { kind: "ignore", level: "debug" }],
    ["a later first charge of a subscription", read(), session({ data: { transactionId: "page_1", subscription: { checkoutId: "page_1" } } }), { kind: "ignore", level: "debug" }],
    // A saved card's charge the session does not hold yet (an unknown outcome): its charge record settles it, never a refund.
    ["a saved card's charge not recorded yet", read(), session({ data: { savedCard: { id: "twcard_1" } } }), { kind: "ignore", level: "debug" }],
    ["a saved card's charge recorded", read(), session({ data: { transactionId: "tx_1", savedCard: { id: "twcard_1" } } }), apply({ record: true, completeCart: true })],
    ["collection paid another way", read(), session({ paidElsewhere: "session payses_2" }), { kind: "refund-orphan", why: expect.stringContaining("payses_2") }],
    // Paid.
    ["paid, no order yet", read(), session(), apply({ record: true, completeCart: true })],
    ["paid, order placed awaiting payment", read(), session({ status: "pending_authorization", order: { id: "order_1", status: "pending" } }), apply({ record: true, authorizeSession: true, reserveStock: false })],
    ["paid, order placed by a completion cut short", read(), session({ order: { id: "order_1", status: "pending" } }), apply({ record: true, authorizeSession: true, reserveStock: true })],
    ["paid, collection without a cart", read(), session({ cartId: undefined }), apply({ record: true, authorizeSession: true })],
    ["paid, already recorded", read(), session({ payment: { id: "pay_1", canceled: false } }), { kind: "ignore", level: "debug" }],
    // A read older than the refund the session records (the run holding the cart's lock gave the money back).
    ["paid, read before the refund the session records", read(), session({ data: { transactionId: "tx_1", status: "refunded", refundAmount: 500 } }), { kind: "ignore", level: "warn", reason: expect.stringContaining("read before the refund") }],
    // Money given back never places or pays an order, however the read comes (a refunded intent still reads succeeded).
    ["intent paid and refunded, no order", read({ status: "succeeded", returned: true, facts: { status: "succeeded", refundAmount: 500 } }), session({ data: { transactionId: "tx_1", status: "succeeded", refundAmount: 500 } }), { kind: "ignore", level: "debug", reason: expect.stringContaining("given back") }],
    ["paid, partly refunded at the service, no order", read({ returned: true, facts: { status: "charged", refundAmount: 100 } }), session(), { kind: "ignore", level: "warn", reason: expect.stringContaining("given back") }],
    ["intent paid and refunded, its order cancelled", read({ status: "succeeded", returned: true }), session({ order: { id: "order_1", status: "canceled" } }), { kind: "ignore", level: "warn" }],
    ["refunded, as the session records", read({ status: "refunded", action: PaymentActions.NOT_SUPPORTED, paid: false, facts: { status: "refunded", refundAmount: 500 } }), session({ data: { transactionId: "tx_1", status: "refunded", refundAmount: 500 } }), { kind: "ignore", level: "debug" }],
    // Paid for an order cancelled meanwhile: an orphan. Card money goes back at once; cvs/atm money needs the
    // shopper's bank account, so the payment is recorded on the cancelled order, where the merchant refunds it.
    ["paid by card for a cancelled order", read({ facts: { status: "charged", paymentMethod: "card" } }), session({ order: { id: "order_1", status: "canceled" } }), { kind: "refund-orphan", why: expect.stringContaining("order order_1 was cancelled") }],
    ["paid (embedded) for a cancelled order", read({ facts: { status: "succeeded" } }), session({ order: { id: "order_1", status: "canceled" } }), { kind: "refund-orphan", why: expect.stringContaining("order order_1 was cancelled") }],
    ["paid by cvs for a cancelled order", read({ facts: { status: "charged", paymentMethod: "cvs" } }), session({ order: { id: "order_1", status: "canceled" } }), apply({ record: true, authorizeSession: true, notice: expect.stringContaining("refund it from order order_1") })],
    ["paid by atm for a cancelled order", read({ facts: { status: "charged", paymentMethod: "atm" } }), session({ order: { id: "order_1", status: "canceled" } }), apply({ record: true, authorizeSession: true, notice: expect.stringContaining("bank account") })],
    ["paid by cvs for a cancelled order, already recorded there", read({ facts: { status: "charged", paymentMethod: "cvs" } }), session({ order: { id: "order_1", status: "canceled" }, payment: { id: "pay_1", canceled: false } }), { kind: "ignore", level: "debug" }],
    // A code issued for later payment.
    ["code issued, no order", read(issued), session(), apply({ record: true, completeCart: true })],
    ["code issued, order placed", read(issued), session({ order: { id: "order_1", status: "pending" } }), apply({ record: true })],
    ["code issued, order placed, already recorded", read(issued), session({ data: { transactionId: "tx_1", status: "charging" }, order: { id: "order_1", status: "pending" } }), { kind: "ignore", level: "debug" }],
    ["code issued and recorded, no order yet (a fresh seal for the completion)", read(issued), session({ data: { transactionId: "tx_1", status: "charging" } }), apply({ record: true, completeCart: true })],
    // Failed or expired.
    ["failed, no order", read(failed), session(), apply({ record: true })],
    ["expired, order awaiting", read(failed), session({ order: { id: "order_1", status: "pending" } }), apply({ record: true, cancelOrder: true })],
    ["expired, order already cancelled", read(failed), session({ order: { id: "order_1", status: "canceled" } }), apply({ record: true })],
    ["failed after a payment was recorded", read(failed), session({ order: { id: "order_1", status: "pending" }, payment: { id: "pay_1", canceled: false } }), { kind: "ignore", level: "debug" }],
    ["failed, already recorded (a re-read of a final state is no news)", read(failed), session({ data: { transactionId: "tx_1", status: "failed" } }), { kind: "ignore", level: "debug" }],
    ["expired and recorded, order still awaiting (its cancel failed before)", read(failed), session({ data: { transactionId: "tx_1", status: "failed" }, order: { id: "order_1", status: "pending" } }), apply({ cancelOrder: true })],
    // Nothing yet.
    ["page not paid yet", read({ status: "initiated", action: PaymentActions.REQUIRES_MORE, paid: false }), session({ data: { transactionId: "tx_1", status: "initiated" } }), { kind: "ignore", level: "debug" }],
    // An order no payment stands on, read under the cart's lock: a completion cut short after core placed it.
    ["page still unpaid under an order without payment", read(unpaid), session({ data: seen, order: placed }), apply({ cancelOrder: true })],
    ["intent still created under an order without payment", read({ status: "created", action: PaymentActions.NOT_SUPPORTED, paid: false }), session({ order: placed }), apply({ record: true, cancelOrder: true })],
    ["refunded under an order without payment", read({ status: "refunded", action: PaymentActions.NOT_SUPPORTED, paid: false, returned: true }), session({ data: { transactionId: "tx_1", refundAmount: 500 }, order: placed }), apply({ record: true, cancelOrder: true })],
    ["intent paid and refunded under an order without payment", read({ status: "succeeded", returned: true }), session({ data: { transactionId: "tx_1", refundAmount: 500 }, order: placed }), apply({ record: true, cancelOrder: true })],
    ["page unpaid, but the order awaits another session's code", read(unpaid), session({ data: seen, order: placed, awaitingElsewhere: "session payses_2" }), { kind: "ignore" }],
    ["page unpaid, but the order is paid through another session", read(unpaid), session({ data: seen, order: placed, paidElsewhere: "session payses_2" }), { kind: "ignore" }],
    ["page unpaid, its order already cancelled", read(unpaid), session({ data: seen, order: { id: "order_1", status: "canceled" } }), { kind: "ignore" }],
    ["refunded after the order's payment was recorded (a refund core made)", read({ status: "refunded", action: PaymentActions.NOT_SUPPORTED, paid: false, returned: true }), session({ order: placed, payment: { id: "pay_1", canceled: false } }), { kind: "ignore" }],
    ["refunded since the last read (the store could not fulfil)", read({ status: "refunded", action: PaymentActions.NOT_SUPPORTED, paid: false }), session({ data: { transactionId: "tx_1", status: "charged" } }), apply({ record: true })],
  ])("%s", (_name, observation, state, expected) => {
    expect(decide(observation, state, "transactionId")).toMatchObject(expected)
  })

  it("decides the same again on a repeated read once the first was applied", () => {
    const placed = session({ order: { id: "order_1", status: "pending" }, payment: { id: "pay_1", canceled: false } })
    expect(decide(read(), placed, "transactionId")).toMatchObject({ kind: "ignore" })
  })
})

describe("decide: paid for a session that is gone, whose cart's order may await it", () => {
  const order = (changes: Partial<CartOrderState> = {}): CartOrderState => ({ id: "order_1", status: "pending", collectionId: "paycol_1", amount: 500, paidWith: [], ...changes })
  it.each<[string, PaymentObservation, CartOrderState | undefined, object]>([
    ["the open order awaits it", read(), order(), { kind: "adopt", orderId: "order_1", collectionId: "paycol_1", why: expect.stringContaining("order order_1 awaited its payment") }],
    ["already recorded there", read(), order({ paidWith: ["tx_1"] }), { kind: "ignore", level: "debug" }],
    ["the order is paid another way", read(), order({ paidWith: ["tx_2"] }), { kind: "refund-orphan", why: expect.stringContaining("paid another way") }],
    ["the order totals another amount", read(), order({ amount: 600 }), { kind: "refund-orphan", why: expect.stringContaining("totals 600") }],
    ["the order is in another currency", read(), order({ amount: undefined }), { kind: "refund-orphan", why: expect.stringContaining("another currency") }],
    ["the order is cancelled", read(), order({ status: "canceled" }), { kind: "refund-orphan", why: expect.stringContaining("no longer exists") }],
    ["the money went back already", read({ returned: true }), order(), { kind: "refund-orphan", why: expect.stringContaining("no longer exists") }],
    ["no order of its cart", read(), undefined, { kind: "refund-orphan", why: expect.stringContaining("no longer exists") }],
  ])("%s", (_name, observation, cartOrder, expected) => {
    expect(decide(observation, undefined, "transactionId", cartOrder)).toMatchObject(expected)
  })

  it("never adopts an unpaid read", () => {
    expect(decide(read(issued), undefined, "transactionId", order())).toMatchObject({ kind: "ignore" })
  })
})
