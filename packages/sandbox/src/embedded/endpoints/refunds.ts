import type { EmbeddedContext } from "../context"
import { ApiError, invalid } from "../envelope"
import { REFUND_REASONS, type RefundReason } from "../refunds"
import { TIMINGS } from "../context"
import { amountField, metadataField, onlyFields, page, parseBody, requiredString } from "../validation"
import { refundView } from "../views"
import type { EmbeddedCall, HandlerResult } from "./call"
import { notFound } from "./payment-intents"

/**
 * Refund endpoints (spec 2.2, 4). Order of checks: body rules -> the intent (404) ->
 * canceled intent (`PAYMENT_INTENT_CANCELED`) -> another refund still pending
 * (`REFUND_IN_PROGRESS`) -> refund window (`REFUND_WINDOW_EXPIRED`) -> amount within
 * `amountRefundable` (`REFUND_AMOUNT_EXCEEDED`; an intent that did not succeed has
 * nothing refundable, so it gets this code too).
 */

export function createRefund(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const body = parseBody(call.rawBody)
  onlyFields(body, ["paymentIntentId", "amount", "reason", "metadata"])
  const paymentIntentId = requiredString(body.paymentIntentId, "paymentIntentId")
  const reason = requiredString(body.reason, "reason")
  if (!REFUND_REASONS.includes(reason as RefundReason)) {
    throw invalid("reason", `reason must be one of ${REFUND_REASONS.join(", ")}`)
  }
  const requested = body.amount === undefined ? undefined : amountField(body.amount)
  const metadata = metadataField(body.metadata)
  const intent = ctx.intents.of(call.merchantId, paymentIntentId)
  if (!intent) {
    throw notFound(paymentIntentId)
  }
  if (intent.status === "canceled") {
    throw new ApiError(400, "PAYMENT_INTENT_CANCELED", `Payment intent ${intent.id} is canceled; nothing to refund`, "paymentIntentId")
  }
  if (ctx.refunds.ofIntent(intent.id).some((r) => r.status === "pending")) {
    throw new ApiError(409, "REFUND_IN_PROGRESS", `A refund of ${intent.id} is still pending; retry later`, "paymentIntentId")
  }
  if (intent.succeededAt !== null && ctx.core.clock.nowMs() - intent.succeededAt > TIMINGS.refundWindowMs) {
    throw new ApiError(400, "REFUND_WINDOW_EXPIRED", "Refunds are possible only within 180 days after the payment succeeded", "paymentIntentId")
  }
  const refundable = ctx.refunds.amountRefundable(intent)
  if (intent.status !== "succeeded") {
    throw new ApiError(400, "REFUND_AMOUNT_EXCEEDED", `Payment intent ${intent.id} is ${intent.status}; nothing is refundable`, "paymentIntentId")
  }
  const amount = requested ?? refundable
  if (amount > refundable || amount < 1) {
    throw new ApiError(400, "REFUND_AMOUNT_EXCEEDED", `At most ${refundable} can still be refunded`, "amount")
  }
  const refund = ctx.refunds.create(intent, { amount, reason: reason as RefundReason, metadata })
  return { data: refundView(refund) }
}

export function listRefunds(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const intentId = call.query.get("paymentIntentId")
  const matching = ctx.refunds.list(call.merchantId).filter((r) => intentId === null || r.paymentIntentId === intentId)
  const result = page(matching, call.query)
  return { data: { items: result.items.map(refundView), hasMore: result.hasMore } }
}

export function getRefund(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const refund = ctx.refunds.of(call.merchantId, call.params.id)
  if (!refund) {
    throw new ApiError(404, "REFUND_NOT_FOUND", `No refund ${call.params.id}`, "id")
  }
  return { data: refundView(refund) }
}
