import type { EmbeddedContext } from "../context"
import { checkMerchantUrl, parseWebUrl } from "../domains"
import { ApiError, invalid } from "../envelope"
import { INTENT_STATUSES, type IntentStatus, type PaymentIntentRecord } from "../intents"
import {
  amountField,
  booleanField,
  currencyField,
  descriptionField,
  metadataField,
  onlyFields,
  orderIdField,
  page,
  parseBody,
  requiredString,
  unixSecondsParam,
} from "../validation"
import { intentView } from "../views"
import type { EmbeddedCall, HandlerResult } from "./call"

/** Backend endpoints for payment intents (spec 4): create, list, read, update metadata, cancel. */

const CREATE_FIELDS = ["amount", "currency", "orderId", "returnUrl", "description", "metadata", "require3ds"]

export function intentData(ctx: EmbeddedContext, intent: PaymentIntentRecord) {
  return intentView(intent, ctx.refunds.amountRefundable(intent))
}

export function notFound(id: string): ApiError {
  return new ApiError(404, "PAYMENT_INTENT_NOT_FOUND", `No payment intent ${id}`, "id")
}

export function findIntent(ctx: EmbeddedContext, call: EmbeddedCall, id: string): PaymentIntentRecord {
  const intent = ctx.intents.of(call.merchantId, id)
  if (!intent) {
    throw notFound(id)
  }
  return intent
}

export function createIntent(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const body = parseBody(call.rawBody)
  onlyFields(body, CREATE_FIELDS)
  const amount = amountField(body.amount)
  currencyField(body.currency)
  const orderId = orderIdField(body.orderId)
  const returnUrl = requiredString(body.returnUrl, "returnUrl")
  parseWebUrl(returnUrl, "returnUrl")
  const description = descriptionField(body.description)
  const metadata = metadataField(body.metadata)
  const require3ds = booleanField(body.require3ds, "require3ds")
  // Without a single allowed domain the embed tab was never set up: no intent can be paid.
  if (call.account.allowedDomains.length === 0) {
    throw new ApiError(400, "MERCHANT_NOT_CONFIGURED", "The merchant's embedded payment setup is incomplete (no allowed domain registered)")
  }
  checkMerchantUrl(returnUrl, "returnUrl", call.account)
  const intent = ctx.intents.create(call.merchantId, { amount, orderId, returnUrl, description, metadata, require3ds })
  return { data: { ...intentData(ctx, intent), clientSecret: intent.clientSecret } }
}

export function listIntents(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const status = call.query.get("status")
  if (status !== null && !INTENT_STATUSES.includes(status as IntentStatus)) {
    throw invalid("status", `status must be one of ${INTENT_STATUSES.join(", ")}`)
  }
  const gte = unixSecondsParam(call.query, "createdGte")
  const lte = unixSecondsParam(call.query, "createdLte")
  const matching = ctx.intents.list(call.merchantId).filter((intent) => {
    const created = Math.floor(intent.createdAt / 1000)
    return (status === null || intent.status === status) && (gte === undefined || created >= gte) && (lte === undefined || created <= lte)
  })
  const result = page(matching, call.query)
  return { data: { items: result.items.map((i) => intentData(ctx, i)), hasMore: result.hasMore } }
}

export function getIntent(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  return { data: intentData(ctx, findIntent(ctx, call, call.params.id)) }
}

/** Only `metadata` may change (spec 4); it is replaced as a whole, in any status. */
export function updateIntent(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const intent = findIntent(ctx, call, call.params.id)
  const body = parseBody(call.rawBody)
  onlyFields(body, ["metadata"], "cannot be changed: only metadata may be updated")
  if (body.metadata !== undefined) {
    intent.metadata = metadataField(body.metadata)
  }
  return { data: intentData(ctx, intent) }
}

/** Any non-final intent can be cancelled; a final one says why not. */
export function cancelIntent(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const intent = findIntent(ctx, call, call.params.id)
  onlyFields(parseBody(call.rawBody), [])
  assertNotFinal(intent, "cancelled")
  ctx.intents.cancel(intent)
  return { data: intentData(ctx, intent) }
}

/** The answer for acting on a final intent: the spec's two codes, and 400 INVALID_REQUEST for `failed`. */
export function assertNotFinal(intent: PaymentIntentRecord, action: string): void {
  switch (intent.status) {
    case "succeeded":
      throw new ApiError(400, "PAYMENT_INTENT_ALREADY_SUCCEEDED", `Payment intent ${intent.id} has already succeeded and cannot be ${action}`)
    case "canceled":
      throw new ApiError(400, "PAYMENT_INTENT_CANCELED", `Payment intent ${intent.id} is canceled and cannot be ${action}`)
    case "failed":
      throw invalid(null, `Payment intent ${intent.id} has failed (final) and cannot be ${action}; create a new payment intent`)
    default:
  }
}
