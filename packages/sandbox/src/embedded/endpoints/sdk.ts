import type { EmbeddedContext } from "../context"
import { checkMerchantUrl } from "../domains"
import { ApiError, invalid } from "../envelope"
import { intentIdOfClientSecret } from "../ids"
import type { PaymentIntentRecord, ThreeDsOutcome } from "../intents"
import { onlyFields, parseBody, requiredString } from "../validation"
import { intentStatusView, nextActionOf } from "../views"
import type { EmbeddedCall, HandlerResult } from "./call"
import { assertNotFinal, findIntent, intentData, notFound } from "./payment-intents"

/**
 * The four SDK endpoints (spec 4; their bodies are not shown, so these are the sandbox's):
 * - `POST /v1/tokens` `{ card: { number, expMonth, expYear, cvc } }` -> `{ id: "tok_...", card: { brand, last4, expMonth, expYear }, created }`
 * - `POST /v1/confirm` `{ clientSecret, token, returnUrl? }` -> the intent (no client secret)
 *   plus `nextAction` (`{ type: "threeDsChallenge", url }` while a challenge waits); a failed
 *   payment is 402 with the failure code. With a secret key `paymentIntentId` may replace
 *   `clientSecret`.
 * - `GET /v1/payment-intents/{id}/status?clientSecret=` -> `{ id, status, amount, currency,
 *   lastPaymentError, nextAction }`; with a publishable key the client secret must match.
 * - `POST /v1/3ds/simulate` `{ paymentIntentId, outcome }` (test environment only).
 * Both key types are accepted on these four.
 */

const THREE_DS_OUTCOMES: ThreeDsOutcome[] = ["success", "failure", "cancel", "timeout"]

export function createToken(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const body = parseBody(call.rawBody)
  onlyFields(body, ["card"])
  const card = body.card
  if (card === null || typeof card !== "object" || Array.isArray(card)) {
    throw invalid("card", "card is required: { number, expMonth, expYear, cvc }")
  }
  const fields = card as Record<string, unknown>
  for (const key of Object.keys(fields)) {
    if (!["number", "expMonth", "expYear", "cvc"].includes(key)) {
      throw invalid(`card.${key}`, `card.${key} is not a card field`)
    }
  }
  const number = requiredString(fields.number, "card.number")
  if (!/^\d{12,19}$/.test(number)) {
    throw invalid("card.number", "card.number must be 12 to 19 digits")
  }
  const expMonth = fields.expMonth
  if (typeof expMonth !== "number" || !Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
    throw invalid("card.expMonth", "card.expMonth must be an integer from 1 to 12")
  }
  const expYear = fields.expYear
  if (typeof expYear !== "number" || !Number.isInteger(expYear) || expYear < 2000 || expYear > 2099) {
    throw invalid("card.expYear", "card.expYear must be a four-digit year")
  }
  const cvc = requiredString(fields.cvc, "card.cvc")
  if (!/^\d{3,4}$/.test(cvc)) {
    throw invalid("card.cvc", "card.cvc must be 3 or 4 digits")
  }
  const token = ctx.tokens.create(call.merchantId, { number, expMonth, expYear })
  return {
    data: {
      id: token.id,
      card: { brand: token.brand, last4: token.last4, expMonth, expYear },
      created: Math.floor(token.createdAt / 1000),
    },
  }
}

/** The intent named by a client secret; a wrong secret is as absent as a wrong id. */
function byClientSecret(ctx: EmbeddedContext, call: EmbeddedCall, clientSecret: string): PaymentIntentRecord {
  const id = intentIdOfClientSecret(clientSecret)
  const intent = id ? ctx.intents.of(call.merchantId, id) : undefined
  if (!intent || intent.clientSecret !== clientSecret) {
    throw notFound(id ?? "(malformed client secret)")
  }
  return intent
}

export function confirmPayment(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const body = parseBody(call.rawBody)
  onlyFields(body, ["clientSecret", "paymentIntentId", "token", "returnUrl"])
  let intent: PaymentIntentRecord
  if (body.clientSecret !== undefined || call.keyKind === "publishable") {
    intent = byClientSecret(ctx, call, requiredString(body.clientSecret, "clientSecret"))
  } else {
    intent = findIntent(ctx, call, requiredString(body.paymentIntentId, "paymentIntentId"))
  }
  const tokenId = requiredString(body.token, "token")
  if (body.returnUrl !== undefined) {
    checkMerchantUrl(requiredString(body.returnUrl, "returnUrl"), "returnUrl", call.account)
  }
  assertNotFinal(intent, "confirmed")
  if (intent.status === "processing") {
    throw invalid(null, `Payment intent ${intent.id} is processing; wait for its result`)
  }
  if (intent.status === "requiresAction") {
    throw invalid(null, `Payment intent ${intent.id} waits for its 3-D Secure challenge; finish or cancel it first`)
  }
  const token = ctx.tokens.use(call.merchantId, tokenId)
  if (!token) {
    throw invalid("token", "The card token is unknown, already used or expired")
  }
  ctx.intents.confirm(intent, token, call.checkoutOrigin)
  if (intent.status === "failed" && intent.lastPaymentError) {
    throw new ApiError(402, intent.lastPaymentError.code, intent.lastPaymentError.message)
  }
  return { data: { ...intentData(ctx, intent), nextAction: nextActionOf(intent) } }
}

export function intentStatus(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const clientSecret = call.query.get("clientSecret")
  let intent: PaymentIntentRecord
  if (call.keyKind === "publishable") {
    if (clientSecret === null) {
      throw invalid("clientSecret", "clientSecret is required with a publishable key")
    }
    intent = byClientSecret(ctx, call, clientSecret)
    if (intent.id !== call.params.id) {
      throw notFound(call.params.id)
    }
  } else {
    intent = findIntent(ctx, call, call.params.id)
  }
  return { data: intentStatusView(intent) }
}

export function simulateThreeDs(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const body = parseBody(call.rawBody)
  onlyFields(body, ["paymentIntentId", "outcome"])
  const intent = findIntent(ctx, call, requiredString(body.paymentIntentId, "paymentIntentId"))
  const outcome = requiredString(body.outcome, "outcome")
  if (!THREE_DS_OUTCOMES.includes(outcome as ThreeDsOutcome)) {
    throw invalid("outcome", `outcome must be one of ${THREE_DS_OUTCOMES.join(", ")}`)
  }
  if (intent.status !== "requiresAction") {
    assertNotFinal(intent, "verified")
    throw invalid("paymentIntentId", `Payment intent ${intent.id} has no 3-D Secure challenge pending (status ${intent.status})`)
  }
  ctx.intents.finishChallenge(intent, outcome as ThreeDsOutcome)
  return { data: call.keyKind === "secret" ? intentData(ctx, intent) : intentStatusView(intent) }
}
