import { type HostedContext, JOBS, TIMINGS } from "./context"
import { authCode, cardToken, digits, paymentCode } from "./ids"
import type { CheckoutSession, HostedSubscription, PaymentMethod } from "./records"
import { orderFieldsOf, type Recurring } from "./recurring"
import { compareDates, formatDate, parseDate, taipeiDate } from "./taipei-time"
import { checkCardInput, PAYMENT_ERROR_BY_FAILURE, type FailureCode, type StoredCard } from "./test-cards"
import { createTransaction, markCharged, markCharging, markFailed } from "./transactions"

/** What the consumer sent from a hosted page's form. */
export interface PaymentForm {
  method: string
  cardNumber: string
  cardExpiry: string
  cardCvc: string
  payerEmail: string
  cvsName: string
  /** The page was opened on a device that offers Apple Pay (sandbox toggle). */
  applePayDevice: boolean
  /** Apple Pay result: `success`, or `pending` (awaiting confirmation, like a code). */
  applePayOutcome: string
}

export type PageOutcome =
  | { kind: "succeeded" }
  | { kind: "failed"; paymentError: string }
  | { kind: "threeDs" }
  | { kind: "awaiting" }
  | { kind: "invalid"; problem: string }

export const CVS_NAMES = ["7-ELEVEN", "FamilyMart", "Hi-Life", "OKmart"] as const
const ATM_BANK = { bankName: "Sandbox Commercial Bank", bankCode: "812" }

/**
 * The consumer's side of the hosted pages: a card (maybe through 3-D Secure), a
 * convenience-store code, a virtual account, LINE Pay or Apple Pay; and the work
 * due later (3-D Secure abandonment, unpaid codes expiring, page expiry).
 */
export class HostedPayments {
  constructor(
    private readonly ctx: HostedContext,
    private readonly recurring: Recurring
  ) {
    const { scheduler } = ctx.core
    scheduler.register(JOBS.sessionExpiry, (payload) => {
      const session = ctx.records.session(payload.sessionId as string)
      // Only an untouched page expires; the transaction itself stays as it is.
      if (session?.state === "open") {
        session.state = "expired"
      }
    })
    scheduler.register(JOBS.threeDsAbandon, (payload) =>
      this.abandonThreeDs(payload.sessionId as string, payload.startedAt as string)
    )
    scheduler.register(JOBS.codeExpiry, (payload) => {
      const tx = ctx.records.transaction(payload.transactionId as string)
      if (tx?.status === "charging") {
        this.expireCode(tx.id)
      }
    })
  }

  /** Methods the page offers: card always; the others only on a single-payment page. */
  methodsFor(session: CheckoutSession, applePayDevice: boolean): PaymentMethod[] {
    if (session.kind !== "checkout") {
      return ["card"]
    }
    const extra = session.allowedPaymentMethods.filter((m) => m !== "card")
    return ["card", ...extra, ...(applePayDevice ? (["applePay"] as const) : [])]
  }

  submit(session: CheckoutSession, form: PaymentForm): PageOutcome {
    const method = form.method as PaymentMethod
    if (!this.methodsFor(session, form.applePayDevice).includes(method)) {
      return { kind: "invalid", problem: "Choose one of the payment methods offered." }
    }
    switch (method) {
      case "card":
        return this.submitCard(session, form)
      case "cvs":
      case "atm":
        return this.issueCode(session, method, form.cvsName)
      case "linePay":
        return this.payNow(session, { method: "linePay", paymentInfo: digits(19) })
      case "applePay":
        return form.applePayOutcome === "pending"
          ? this.awaitWallet(session)
          : this.payNow(session, { method: "applePay", authCode: authCode() })
    }
  }

  completeThreeDs(session: CheckoutSession): PageOutcome {
    if (session.state !== "threeDs" || !session.pendingCard) {
      return { kind: "invalid", problem: "This verification is no longer running." }
    }
    const card = session.pendingCard
    session.pendingCard = undefined
    return this.completeCard(session, card)
  }

  /** A code or wallet payment was paid (control API). */
  payCode(transactionId: string): void {
    const tx = this.requireTransaction(transactionId)
    markCharged(this.ctx, tx, { method: tx.paymentMethod ?? "cvs", authCode: tx.paymentMethod === "applePay" ? authCode() : undefined })
    this.finishSession(tx.id, "succeeded")
    this.ctx.notifier.charge(tx)
  }

  /** A code or wallet payment ran out unpaid (its deadline, or the control API). */
  expireCode(transactionId: string): void {
    const tx = this.requireTransaction(transactionId)
    markFailed(this.ctx, tx, { message: "PAYMENT_EXPIRED" })
    this.finishSession(tx.id, "failed")
    this.ctx.notifier.charge(tx)
  }

  private submitCard(session: CheckoutSession, form: PaymentForm): PageOutcome {
    if (session.kind === "binding" && !session.payerEmail) {
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(form.payerEmail.trim())) {
        return { kind: "invalid", problem: "Enter the cardholder's email address." }
      }
      session.payerEmail = form.payerEmail.trim()
    }
    const now = this.ctx.core.clock.nowMs()
    const check = checkCardInput({ number: form.cardNumber, expiry: form.cardExpiry, cvc: form.cardCvc }, taipeiDate(now))
    if (!check.ok) {
      return this.fail(session, { failureCode: check.failureCode, last4: check.last4 })
    }
    if (check.behaviour.requires3ds || session.use3d) {
      session.state = "threeDs"
      session.pendingCard = check.card
      session.threeDsStartedAt = new Date(now).toISOString()
      this.ctx.core.scheduler.schedule(JOBS.threeDsAbandon, now + TIMINGS.threeDsAbandonMs, {
        sessionId: session.id,
        startedAt: session.threeDsStartedAt,
      })
      return { kind: "threeDs" }
    }
    return this.completeCard(session, check.card)
  }

  private completeCard(session: CheckoutSession, card: StoredCard): PageOutcome {
    const payment = { method: "card" as const, paymentInfo: card.last4, authCode: authCode(), card }
    session.state = "succeeded"
    switch (session.kind) {
      case "checkout": {
        const tx = this.sessionTransaction(session)
        markCharged(this.ctx, tx, payment)
        this.ctx.notifier.charge(tx)
        break
      }
      case "subscription": {
        const tx = this.sessionTransaction(session)
        const sub = this.sessionSubscription(session)
        markCharged(this.ctx, tx, payment)
        this.recurring.startWithFirstPeriod(sub, card)
        this.ctx.notifier.charge(tx, sub)
        break
      }
      case "schedule": {
        const sub = this.sessionSubscription(session)
        const today = taipeiDate(this.ctx.core.clock.nowMs())
        const start = parseDate(sub.anchorDate ?? "") ?? today
        if (compareDates(start, today) <= 0) {
          // First date today: the first period is charged now.
          const tx = session.transactionId
            ? this.sessionTransaction(session)
            : createTransaction(this.ctx, { ...orderFieldsOf(sub), merchantId: sub.merchantId, origin: "schedule", action: "subscription", subscriptionHid: sub.hid, period: 1, numberOfPeriods: sub.numberOfPeriods })
          markCharged(this.ctx, tx, payment)
          this.recurring.startWithFirstPeriod(sub, card)
        } else {
          this.recurring.startLater(sub, card, formatDate(start))
        }
        this.ctx.notifier.scheduleSubscription(session, sub, { success: true })
        break
      }
      case "binding": {
        const token = cardToken()
        this.ctx.records.addToken({
          token,
          merchantId: session.merchantId,
          card,
          bindingId: session.id,
          createdAt: this.ctx.core.clock.now().toISOString(),
        })
        this.ctx.notifier.token(session, { success: true, token, last4: card.last4 })
        break
      }
    }
    return { kind: "succeeded" }
  }

  /** The page's payment failed: the transaction (if any) fails and the merchant is told. */
  private fail(session: CheckoutSession, failure: { failureCode?: FailureCode; message?: string; last4?: string }): PageOutcome {
    const paymentError = failure.failureCode ? PAYMENT_ERROR_BY_FAILURE[failure.failureCode] : "T0005"
    session.state = "failed"
    session.paymentError = paymentError
    session.pendingCard = undefined
    const reason = { failureCode: failure.failureCode, message: failure.message, method: "card" as const, paymentInfo: failure.last4 }
    switch (session.kind) {
      case "checkout": {
        const tx = this.sessionTransaction(session)
        markFailed(this.ctx, tx, reason)
        this.ctx.notifier.charge(tx)
        break
      }
      case "subscription": {
        const tx = this.sessionTransaction(session)
        const sub = this.sessionSubscription(session)
        markFailed(this.ctx, tx, reason)
        stopSubscription(sub)
        this.ctx.notifier.charge(tx, sub)
        break
      }
      case "schedule": {
        const sub = this.sessionSubscription(session)
        if (session.transactionId) {
          markFailed(this.ctx, this.sessionTransaction(session), reason)
        }
        stopSubscription(sub)
        this.ctx.notifier.scheduleSubscription(session, sub, { success: false, message: failure.message ?? failure.failureCode })
        break
      }
      case "binding":
        this.ctx.notifier.token(session, { success: false, last4: failure.last4, message: failure.message ?? failure.failureCode })
        break
    }
    return { kind: "failed", paymentError }
  }

  private abandonThreeDs(sessionId: string, startedAt: string): void {
    const session = this.ctx.records.session(sessionId)
    if (session?.state !== "threeDs" || session.threeDsStartedAt !== startedAt) {
      return
    }
    this.fail(session, { message: "3DS_ABANDONED", last4: session.pendingCard?.last4 })
  }

  private issueCode(session: CheckoutSession, method: "cvs" | "atm", cvsName: string): PageOutcome {
    const tx = this.sessionTransaction(session)
    const now = this.ctx.core.clock.nowMs()
    const expiresAt = now + (method === "cvs" ? TIMINGS.cvsValidityMs : TIMINGS.atmValidityMs)
    const expiredAt = new Date(expiresAt).toISOString()
    const info =
      method === "cvs"
        ? { cvsName: (CVS_NAMES as readonly string[]).includes(cvsName) ? cvsName : CVS_NAMES[0], code: paymentCode(), expiredAt }
        : { ...ATM_BANK, account: digits(14), expiredAt }
    markCharging(this.ctx, tx, method, info, expiresAt)
    session.state = "awaiting"
    this.ctx.notifier.charge(tx)
    return { kind: "awaiting" }
  }

  private awaitWallet(session: CheckoutSession): PageOutcome {
    const tx = this.sessionTransaction(session)
    markCharging(this.ctx, tx, "applePay", undefined, this.ctx.core.clock.nowMs() + TIMINGS.walletValidityMs)
    session.state = "awaiting"
    this.ctx.notifier.charge(tx)
    return { kind: "awaiting" }
  }

  private payNow(session: CheckoutSession, payment: { method: PaymentMethod; paymentInfo?: string; authCode?: string }): PageOutcome {
    const tx = this.sessionTransaction(session)
    markCharged(this.ctx, tx, payment)
    session.state = "succeeded"
    this.ctx.notifier.charge(tx)
    return { kind: "succeeded" }
  }

  private finishSession(transactionId: string, state: "succeeded" | "failed"): void {
    const session = this.ctx.records.session(transactionId)
    if (session?.state === "awaiting") {
      session.state = state
    }
  }

  private requireTransaction(id: string) {
    const tx = this.ctx.records.transaction(id)
    if (!tx) {
      throw new Error(`no transaction ${id}`)
    }
    return tx
  }

  private sessionTransaction(session: CheckoutSession) {
    return this.requireTransaction(session.transactionId ?? "")
  }

  private sessionSubscription(session: CheckoutSession): HostedSubscription {
    const sub = this.ctx.records.subscription(session.subscriptionHid ?? "")
    if (!sub) {
      throw new Error(`no subscription for checkout ${session.id}`)
    }
    return sub
  }
}

/** A recurring checkout that failed never starts. */
function stopSubscription(sub: HostedSubscription): void {
  sub.status = "error"
  sub.nextChargeAt = undefined
}
