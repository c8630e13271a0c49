import { type HostedContext, JOBS, TIMINGS } from "./context"
import { stateError } from "./envelope"
import { authCode } from "./ids"
import type { HostedSubscription, HostedTransaction, ScheduleStatus } from "./records"
import { addDays, addMonths, atTaipei, formatDate, parseDate, taipeiDate } from "./taipei-time"
import { laterChargeOutcome, type StoredCard } from "./test-cards"
import { createTransaction, markCharged, markFailed } from "./transactions"

/**
 * Recurring payments (spec 3.2, 4.2, 4.3, 4.6, 4.12). Period n is due at 09:00
 * Taipei on the anchor date plus (n-1) x interval months. A failed period stops
 * the subscription (`error`) unless the merchant has the retry feature, in which
 * case it is retried the next day at 09:00, up to 3 retries.
 */

const CANCELLABLE: readonly ScheduleStatus[] = ["active", "trialing", "retrying"]

export class Recurring {
  constructor(private readonly ctx: HostedContext) {
    ctx.core.scheduler.register(JOBS.recurringCharge, (payload) =>
      this.chargePeriod(payload.hid as string, payload.period as number, payload.attempt as number)
    )
  }

  /** Period 1 was just paid (on the page or by token): the subscription runs from today. */
  startWithFirstPeriod(sub: HostedSubscription, card: StoredCard): void {
    const now = this.ctx.core.clock.nowMs()
    sub.card = card
    sub.anchorDate = formatDate(taipeiDate(now))
    sub.period = 1
    sub.retryAttempt = 0
    sub.startedAt = new Date(now).toISOString()
    this.scheduleNext(sub, 2)
  }

  /** Card bound now, first period on a later Taipei date. */
  startLater(sub: HostedSubscription, card: StoredCard, anchorDate: string): void {
    sub.card = card
    sub.anchorDate = anchorDate
    sub.period = 0
    sub.retryAttempt = 0
    sub.status = "trialing"
    sub.startedAt = this.ctx.core.clock.now().toISOString()
    this.scheduleNext(sub, 1)
  }

  dueAt(sub: HostedSubscription, period: number): number {
    const anchor = parseDate(sub.anchorDate ?? "")
    if (!anchor) {
      throw new Error(`subscription ${sub.hid} has no anchor date`)
    }
    return atTaipei(addMonths(anchor, (period - 1) * sub.paymentInterval), TIMINGS.recurringHourTaipei)
  }

  cancel(sub: HostedSubscription, source: "merchant_api" | "crm", reason: string | undefined): void {
    if (!CANCELLABLE.includes(sub.status)) {
      const why = sub.status === "pending" ? "checkout not completed" : `subscription is ${sub.status}`
      throw stateError(`Subscription cannot be cancelled: ${why}`)
    }
    const from = sub.status
    sub.status = "cancelled"
    sub.cancelledAt = this.ctx.core.clock.now().toISOString()
    sub.reason = reason
    sub.nextChargeAt = undefined
    this.ctx.core.scheduler.cancel(JOBS.recurringCharge, (p) => p.hid === sub.hid)
    this.ctx.notifier.subscriptionCancelled(sub, source, from)
  }

  private scheduleNext(sub: HostedSubscription, period: number): void {
    if (sub.numberOfPeriods !== undefined && period > sub.numberOfPeriods) {
      sub.status = "completed"
      sub.nextChargeAt = undefined
      return
    }
    if (period > 1) {
      sub.status = "active"
    }
    const at = this.dueAt(sub, period)
    sub.nextChargeAt = new Date(at).toISOString()
    this.ctx.core.scheduler.schedule(JOBS.recurringCharge, at, { hid: sub.hid, period, attempt: 0 })
  }

  private chargePeriod(hid: string, period: number, attempt: number): void {
    const sub = this.ctx.records.subscription(hid)
    // Stale jobs (cancelled, already charged, superseded retry) do nothing.
    if (!sub?.card || !CANCELLABLE.includes(sub.status) || sub.period !== period - 1 || sub.retryAttempt !== attempt) {
      return
    }
    const merchant = this.ctx.core.merchants.get(sub.merchantId)
    const now = this.ctx.core.clock.nowMs()
    const tx = createTransaction(this.ctx, {
      ...orderFieldsOf(sub),
      merchantId: sub.merchantId,
      origin: "recurring",
      action: "subscription",
      subscriptionHid: sub.hid,
      period,
      numberOfPeriods: sub.numberOfPeriods,
      isRetry: attempt > 0,
    })
    const failure = laterChargeOutcome(sub.card, taipeiDate(now), attempt > 0)
    if (!failure) {
      markCharged(this.ctx, tx, { method: "card", paymentInfo: sub.card.last4, authCode: authCode(), card: sub.card })
      sub.period = period
      sub.retryAttempt = 0
      this.scheduleNext(sub, period + 1)
      this.ctx.notifier.charge(tx, sub)
      return
    }
    markFailed(this.ctx, tx, { failureCode: failure, method: "card", paymentInfo: sub.card.last4 })
    if (merchant?.retryFeature && attempt < TIMINGS.maxPeriodRetries) {
      const nextRetry = atTaipei(addDays(taipeiDate(now), 1), TIMINGS.recurringHourTaipei)
      sub.status = "retrying"
      sub.retryAttempt = attempt + 1
      sub.nextChargeAt = new Date(nextRetry).toISOString()
      this.ctx.core.scheduler.schedule(JOBS.recurringCharge, nextRetry, { hid, period, attempt: attempt + 1 })
      this.ctx.notifier.charge(tx, sub)
      this.ctx.notifier.subscriptionRetry(sub, tx, { kind: "scheduled", attempt: attempt + 1, nextRetryAt: sub.nextChargeAt })
      return
    }
    sub.status = "error"
    sub.nextChargeAt = undefined
    this.ctx.notifier.charge(tx, sub)
    if (merchant?.retryFeature) {
      this.ctx.notifier.subscriptionRetry(sub, tx, { kind: "exhausted", attempt })
    }
  }
}

export function orderFieldsOf(source: HostedSubscription | HostedTransaction) {
  return {
    orderId: source.orderId,
    amount: source.amount,
    productDetails: source.productDetails,
    description: source.description,
    userId: source.userId,
    userName: source.userName,
    userEmail: source.userEmail,
    userPhone: source.userPhone,
    customId: source.customId,
    note: source.note,
    invoiceInfo: source.invoiceInfo,
    invoiced: source.invoiced,
  }
}
