import type { HostedContext } from "../context"
import { HostedError, unknownResultError, validationError } from "../envelope"
import { authCode } from "../ids"
import type { CardTokenRecord } from "../records"
import type { Recurring } from "../recurring"
import { taipeiDate } from "../taipei-time"
import { laterChargeOutcome, PAYMENT_ERROR_BY_FAILURE } from "../test-cards"
import { createTransaction, markCharged, markFailed } from "../transactions"
import { validateCreate } from "../validation"
import type { HostedCall } from "./call"
import { newSubscription, orderFields } from "./checkouts"

/**
 * Charges with a bound card, without the consumer and without 3-D Secure (spec
 * 4.5, 4.6). No notification for these results. A failed charge still leaves a
 * failed transaction, findable by order. A `c026` fault answers 409 `C026`; with
 * `applied: true` (default) the charge happened behind it, with `applied: false`
 * nothing was created.
 */

/** POST /token/transactions */
export function chargeToken(ctx: HostedContext, call: HostedCall) {
  const now = ctx.core.clock.nowMs()
  const input = validateCreate("tokenCharge", call.body, call.merchant, now)
  const record = cardTokenFor(ctx, call, input.token)
  const unknownResult = takeC026(ctx, call)
  const tx = createTransaction(ctx, {
    ...orderFields(input, call.merchant),
    merchantId: call.merchant.merchantId,
    origin: "tokenCharge",
    action: "onetime",
    expectedPayoutDate: input.expectedPayoutDate,
  })
  const failure = laterChargeOutcome(record.card, taipeiDate(now), false)
  if (failure) {
    markFailed(ctx, tx, { failureCode: failure, method: "card", paymentInfo: record.card.last4 })
  } else {
    markCharged(ctx, tx, { method: "card", paymentInfo: record.card.last4, authCode: authCode(), card: record.card })
  }
  if (unknownResult) {
    throw unknownResultError()
  }
  if (failure) {
    throw new HostedError(400, PAYMENT_ERROR_BY_FAILURE[failure], failure)
  }
  return { id: tx.hid, authCode: tx.authCode as string }
}

/**
 * POST /token/subscriptions: without `startDate` the first period is charged now
 * (its result is the response); with one, only the schedule is created. When the
 * first charge fails no subscription is created, only the failed transaction.
 */
export function subscribeToken(ctx: HostedContext, recurring: Recurring, call: HostedCall) {
  const now = ctx.core.clock.nowMs()
  const input = validateCreate("tokenSubscription", call.body, call.merchant, now)
  const record = cardTokenFor(ctx, call, input.token)
  const unknownResult = takeC026(ctx, call)
  const sub = newSubscription(ctx, call.merchant, input, "token", input.paymentInterval ?? 1)
  if (input.startDate) {
    ctx.records.addSubscription(sub)
    recurring.startLater(sub, record.card, input.startDate)
    if (unknownResult) {
      throw unknownResultError()
    }
    return { subscriptionId: sub.hid }
  }
  const tx = createTransaction(ctx, {
    ...orderFields(input, call.merchant),
    merchantId: call.merchant.merchantId,
    origin: "tokenSubscription",
    action: "subscription",
    period: 1,
    numberOfPeriods: input.numberOfPeriods,
  })
  const failure = laterChargeOutcome(record.card, taipeiDate(now), false)
  if (failure) {
    markFailed(ctx, tx, { failureCode: failure, method: "card", paymentInfo: record.card.last4 })
  } else {
    markCharged(ctx, tx, { method: "card", paymentInfo: record.card.last4, authCode: authCode(), card: record.card })
    tx.subscriptionHid = sub.hid
    ctx.records.addSubscription(sub)
    recurring.startWithFirstPeriod(sub, record.card)
  }
  if (unknownResult) {
    throw unknownResultError()
  }
  if (failure) {
    throw new HostedError(400, PAYMENT_ERROR_BY_FAILURE[failure], failure)
  }
  return { subscriptionId: sub.hid, transactionId: tx.id, authCode: tx.authCode }
}

/** A token unknown to this domain is a parameter error (the spec does not name one). */
function cardTokenFor(ctx: HostedContext, call: HostedCall, token: string): CardTokenRecord {
  const record = ctx.records.token(token)
  if (!record || record.merchantId !== call.merchant.merchantId) {
    throw validationError(["token: unknown card token"])
  }
  return record
}

/** A pending `c026` fault: not applied means the 409 comes before anything happens. */
function takeC026(ctx: HostedContext, call: HostedCall): boolean {
  const fault = ctx.core.faults.takeApi({ api: "hosted", merchantId: call.merchant.merchantId, endpoint: call.endpoint }, ["c026"])
  if (fault && fault.kind === "c026" && !fault.applied) {
    throw unknownResultError()
  }
  return fault !== undefined
}
