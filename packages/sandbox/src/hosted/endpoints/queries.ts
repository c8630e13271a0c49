import type { HostedContext } from "../context"
import { validationError } from "../envelope"
import { SUBSCRIPTION_HID_PATTERN, TRANSACTION_HID_PATTERN } from "../ids"
import { paginate } from "../pagination"
import type { HostedSubscription } from "../records"
import { subscriptionView, transactionView } from "../views"
import type { HostedCall } from "./call"

/**
 * Read endpoints (spec 4.7, 4.8, 4.9, 4.11, 4.13). Lists run oldest first, so a
 * marker stays valid while new records are added. Something that does not exist
 * or belongs to another domain is `V0001` (not shown for queries; the cancel
 * endpoint's rule).
 */

/** GET /transactions/{id}: by 27-character id, or by P number (then without productDetails and numberOfPeriods). */
export function getTransaction(ctx: HostedContext, call: HostedCall) {
  const key = call.params.id
  const byHid = TRANSACTION_HID_PATTERN.test(key)
  const tx = byHid ? ctx.records.transactionByHid(key) : ctx.records.transaction(key)
  if (!tx || tx.merchantId !== call.merchant.merchantId) {
    throw validationError(["transaction not found"])
  }
  return transactionView(tx, { byHid })
}

/** GET /transactions */
export function listTransactions(ctx: HostedContext, call: HostedCall) {
  const { items, page } = paginate(ctx.records.transactions(call.merchant.merchantId), call.query, "transactions", call.merchant.merchantId)
  return { transactions: items.map((tx) => transactionView(tx)), page }
}

/** GET /order/{orderId}/transactions: every transaction of the order, failed ones included. */
export function listOrderTransactions(ctx: HostedContext, call: HostedCall) {
  const transactions = ctx.records.transactions(call.merchant.merchantId).filter((tx) => tx.orderId === call.params.orderId)
  return { transactions: transactions.map((tx) => transactionView(tx)) }
}

/** GET /subscriptions/{id} */
export function getSubscription(ctx: HostedContext, call: HostedCall) {
  return subscriptionView(subscriptionOf(ctx, call, call.params.id))
}

/** GET /subscriptions */
export function listSubscriptions(ctx: HostedContext, call: HostedCall) {
  const { items, page } = paginate(ctx.records.subscriptions(call.merchant.merchantId), call.query, "subscriptions", call.merchant.merchantId)
  return { subscriptions: items.map(subscriptionView), page }
}

/** By S number only; internal ids, unknown numbers and other domains' numbers are V0001. */
export function subscriptionOf(ctx: HostedContext, call: HostedCall, key: string): HostedSubscription {
  const sub = SUBSCRIPTION_HID_PATTERN.test(key) ? ctx.records.subscription(key) : undefined
  if (!sub || sub.merchantId !== call.merchant.merchantId) {
    throw validationError(["subscription not found"])
  }
  return sub
}
