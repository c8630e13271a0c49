import type { Merchant } from "../../merchants"
import { type HostedContext, JOBS, TIMINGS } from "../context"
import { subscriptionHid, transactionId } from "../ids"
import type { CheckoutSession, HostedSubscription, OrderFields, SessionKind } from "../records"
import { compareDates, formatDate, parseDate, taipeiDate } from "../taipei-time"
import { createTransaction } from "../transactions"
import { type CreateInput, validateCreate } from "../validation"
import type { HostedCall } from "./call"

/**
 * The four endpoints that open a hosted page (spec 4.1 to 4.4). Each returns the
 * page id; the page is valid 5 minutes (10 for card binding) from this call.
 */

/** POST /checkout: a single payment; the transaction exists at once as `initiated`. */
export function createCheckout(ctx: HostedContext, call: HostedCall) {
  const input = validateCreate("checkout", call.body, call.merchant, ctx.core.clock.nowMs())
  const tx = createTransaction(ctx, {
    ...orderFields(input, call.merchant),
    merchantId: call.merchant.merchantId,
    origin: "checkout",
    action: "onetime",
    expectedPayoutDate: input.expectedPayoutDate,
  })
  openSession(ctx, call.merchant, "checkout", input, { id: tx.id, transactionId: tx.id, amount: tx.amount, description: tx.description })
  return { id: tx.id, transactionHid: tx.hid }
}

/** POST /checkout-subscription: monthly, first period charged when the consumer pays. */
export function createSubscriptionCheckout(ctx: HostedContext, call: HostedCall) {
  const input = validateCreate("subscription", call.body, call.merchant, ctx.core.clock.nowMs())
  const sub = newSubscription(ctx, call.merchant, input, "subscription", 1)
  ctx.records.addSubscription(sub)
  const tx = createTransaction(ctx, {
    ...orderFields(input, call.merchant),
    merchantId: call.merchant.merchantId,
    origin: "subscription",
    action: "subscription",
    subscriptionHid: sub.hid,
    period: 1,
    numberOfPeriods: input.numberOfPeriods,
  })
  sub.sessionId = tx.id
  openSession(ctx, call.merchant, "subscription", input, {
    id: tx.id,
    transactionId: tx.id,
    subscriptionHid: sub.hid,
    amount: tx.amount,
    description: tx.description,
  })
  return { id: tx.id, transactionHid: tx.hid }
}

/**
 * POST /checkout-schedule: first period on `startDate` (default today). Starting
 * today, the first period's transaction exists at once under the page id; starting
 * later, the page only binds the card.
 */
export function createScheduleCheckout(ctx: HostedContext, call: HostedCall) {
  const now = ctx.core.clock.nowMs()
  const input = validateCreate("schedule", call.body, call.merchant, now)
  const today = taipeiDate(now)
  const start = input.startDate ? (parseDate(input.startDate) ?? today) : today
  const sub = newSubscription(ctx, call.merchant, input, "schedule", input.paymentInterval ?? 1)
  sub.anchorDate = formatDate(start)
  ctx.records.addSubscription(sub)
  const id = transactionId()
  sub.sessionId = id
  let txId: string | undefined
  if (compareDates(start, today) === 0) {
    txId = createTransaction(ctx, {
      ...orderFields(input, call.merchant),
      id,
      merchantId: call.merchant.merchantId,
      origin: "schedule",
      action: "subscription",
      subscriptionHid: sub.hid,
      period: 1,
      numberOfPeriods: input.numberOfPeriods,
    }).id
  }
  openSession(ctx, call.merchant, "schedule", input, {
    id,
    transactionId: txId,
    subscriptionHid: sub.hid,
    amount: input.amount,
    description: sub.description,
  })
  return { id, subscriptionHid: sub.hid }
}

/** POST /checkout-token: a card-binding page; the token arrives only by notification. */
export function createCardBinding(ctx: HostedContext, call: HostedCall) {
  const input = validateCreate("binding", call.body, call.merchant, ctx.core.clock.nowMs())
  const id = transactionId()
  openSession(ctx, call.merchant, "binding", input, { id, payerEmail: input.payerEmail })
  return { id }
}

export function orderFields(input: CreateInput, merchant: Merchant): OrderFields {
  return {
    orderId: input.orderId,
    amount: input.amount,
    productDetails: input.productDetails,
    description: input.productDetails[0]?.description ?? "",
    userId: input.userId,
    userName: input.userName,
    userEmail: input.userEmail,
    userPhone: input.userPhone,
    customId: input.customId,
    note: input.note,
    invoiceInfo: merchant.einvoiceActive ? input.invoiceInfo : undefined,
    invoiced: merchant.einvoiceActive,
  }
}

export function newSubscription(
  ctx: HostedContext,
  merchant: Merchant,
  input: CreateInput,
  origin: HostedSubscription["origin"],
  paymentInterval: number
): HostedSubscription {
  const now = ctx.core.clock.nowMs()
  let hid = subscriptionHid(now)
  while (ctx.records.subscription(hid)) {
    hid = subscriptionHid(now)
  }
  return {
    ...orderFields(input, merchant),
    seq: ctx.records.nextSeq(),
    hid,
    merchantId: merchant.merchantId,
    origin,
    status: "pending",
    numberOfPeriods: input.numberOfPeriods,
    paymentInterval,
    period: 0,
    retryAttempt: 0,
    createdAt: new Date(now).toISOString(),
  }
}

function openSession(
  ctx: HostedContext,
  merchant: Merchant,
  kind: SessionKind,
  input: CreateInput,
  extra: Pick<CheckoutSession, "id"> & Partial<CheckoutSession>
): void {
  const now = ctx.core.clock.nowMs()
  const expiresAt = now + (kind === "binding" ? TIMINGS.bindingPageMs : TIMINGS.checkoutPageMs)
  const session: CheckoutSession = {
    merchantId: merchant.merchantId,
    kind,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    successUrl: input.successUrl,
    failureUrl: input.failureUrl,
    // Forced on for an always-3D domain.
    use3d: Boolean(input.use3d) || merchant.always3d,
    allowedPaymentMethods: input.allowedPaymentMethods ?? ["card"],
    state: "open",
    customId: input.customId,
    ...extra,
  }
  ctx.records.addSession(session)
  ctx.core.scheduler.schedule(JOBS.sessionExpiry, expiresAt, { sessionId: session.id })
}
