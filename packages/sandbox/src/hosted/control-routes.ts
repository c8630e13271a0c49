import { z } from "zod"
import { ControlError, type ControlRouter, parseBody, reply } from "../control/routes"
import type { HostedContext } from "./context"
import { TRANSACTION_HID_PATTERN } from "./ids"
import type { HostedPayments } from "./payments"
import type { HostedTransaction } from "./records"
import type { Recurring } from "./recurring"
import { moveTo, TransitionError } from "./transactions"
import { subscriptionView, transactionView } from "./views"

/**
 * Hosted-API parts of the control API: the consumer paying or letting expire an
 * issued code, the acquirer's `claimed` step, an admin-console cancellation, and
 * read-only views with the sandbox's internal fields.
 */
export function addHostedControlRoutes(router: ControlRouter, ctx: HostedContext, payments: HostedPayments, recurring: Recurring): void {
  const find = (key: string): HostedTransaction => {
    const tx = TRANSACTION_HID_PATTERN.test(key) ? ctx.records.transactionByHid(key) : ctx.records.transaction(key)
    if (!tx) {
      throw new ControlError(404, `no transaction ${key}`)
    }
    return tx
  }
  const transition = (key: string, work: (tx: HostedTransaction) => void) => {
    const tx = find(key)
    try {
      work(tx)
    } catch (err) {
      if (err instanceof TransitionError) {
        throw new ControlError(409, err.message)
      }
      throw err
    }
    return reply(internalView(tx))
  }
  const onlyCharging = (tx: HostedTransaction) => {
    if (tx.status !== "charging") {
      throw new ControlError(409, `transaction ${tx.id} is ${tx.status}, not charging (no issued code or pending wallet payment)`)
    }
  }

  router
    .add("GET", "/transactions", (req) => {
      const merchantId = req.query.get("merchantId") ?? undefined
      const orderId = req.query.get("orderId")
      const list = ctx.records.transactions(merchantId).filter((tx) => orderId === null || tx.orderId === orderId)
      return reply({ transactions: list.map(internalView) })
    })
    .add("GET", "/transactions/{id}", (req) => reply(internalView(find(req.params.id))))
    .add("POST", "/transactions/{id}/pay", (req) =>
      transition(req.params.id, (tx) => {
        onlyCharging(tx)
        payments.payCode(tx.id)
      })
    )
    .add("POST", "/transactions/{id}/expire", (req) =>
      transition(req.params.id, (tx) => {
        onlyCharging(tx)
        payments.expireCode(tx.id)
      })
    )
    .add("POST", "/transactions/{id}/claim", (req) => transition(req.params.id, (tx) => moveTo(tx, "claimed")))
    .add("GET", "/subscriptions", (req) => {
      const list = ctx.records.subscriptions(req.query.get("merchantId") ?? undefined)
      return reply({ subscriptions: list.map((s) => ({ ...subscriptionView(s), merchantId: s.merchantId, origin: s.origin, anchorDate: s.anchorDate, retryAttempt: s.retryAttempt, last4: s.card?.last4 })) })
    })
    .add("POST", "/subscriptions/{hid}/cancel", (req) => {
      const sub = ctx.records.subscription(req.params.hid)
      if (!sub) {
        throw new ControlError(404, `no subscription ${req.params.hid}`)
      }
      const { reason } = parseBody(z.strictObject({ reason: z.string().optional() }), req.body)
      try {
        recurring.cancel(sub, "crm", reason)
      } catch (err) {
        throw new ControlError(409, (err as Error).message)
      }
      return reply(subscriptionView(sub))
    })
}

function internalView(tx: HostedTransaction) {
  return {
    ...transactionView(tx),
    // What the merchant sent that the API's own view does not show (for tests and debugging).
    userName: tx.userName,
    userEmail: tx.userEmail,
    invoiceInfo: tx.invoiceInfo,
    invoiced: tx.invoiced,
    origin: tx.origin,
    action: tx.action,
    failureCode: tx.failureCode,
    message: tx.message,
    subscriptionId: tx.subscriptionHid,
    period: tx.period,
    isRetry: tx.isRetry,
    paidOutAt: tx.paidOutAt,
    refund: tx.refund,
  }
}
