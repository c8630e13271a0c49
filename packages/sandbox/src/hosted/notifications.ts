import type { SandboxCore } from "../context"
import { withoutEmpty } from "./envelope"
import { refundId } from "./ids"
import type { CheckoutSession, HostedSubscription, HostedTransaction, RefundRecord, ScheduleStatus } from "./records"

/**
 * Notification bodies of spec 6.2 to 6.7: exactly the listed fields, optional ones
 * left out when empty, `currency` in lower case. The three "new event" purposes are
 * only sent when the merchant has that option.
 */

const NEW_EVENT_PURPOSES = new Set(["refund", "subscription_cancelled", "subscription_retry"])

export class HostedNotifier {
  constructor(private readonly core: SandboxCore) {}

  /** 6.2: a payment result, a code issued, or a period result. */
  charge(tx: HostedTransaction, sub?: HostedSubscription): void {
    const recurring = tx.action === "subscription" && sub
    this.send(tx.merchantId, "charge", {
      purpose: "charge",
      id: tx.id,
      transactionId: tx.id,
      transactionHid: tx.hid,
      merchantId: tx.merchantId,
      orderId: tx.orderId,
      action: tx.action,
      status: tx.status,
      // Absent while a code or wallet payment waits; true for any final status but failed.
      success: tx.status === "charging" ? undefined : tx.status !== "failed",
      paymentMethod: tx.paymentMethod,
      amount: tx.amount,
      currency: "twd",
      paymentInfo: tx.paymentInfo,
      authCode: tx.authCode,
      customId: tx.customId,
      productDetails: tx.productDetails,
      userPhone: tx.userPhone,
      createdAt: tx.createdAt,
      paidAt: tx.paidAt,
      message: tx.message,
      subscriptionId: recurring ? sub.hid : undefined,
      period: recurring ? tx.period : undefined,
      numberOfPeriods: recurring ? sub.numberOfPeriods : undefined,
      isRetry: recurring ? (tx.isRetry ?? false) : undefined,
      failureCode: tx.failureCode,
      scheduleStatus: recurring ? sub.status : undefined,
      nextChargeAt: recurring ? sub.nextChargeAt : undefined,
    })
  }

  /** 6.3: card binding finished or failed; the only way a merchant learns the token. */
  token(session: CheckoutSession, result: { success: boolean; token?: string; last4?: string; message?: string }): void {
    this.send(session.merchantId, "token", {
      purpose: "token",
      id: session.id,
      transactionId: session.id,
      merchantId: session.merchantId,
      success: result.success,
      token: result.success ? result.token : undefined,
      paymentInfo: result.last4,
      customId: session.customId,
      message: result.message,
    })
  }

  /** 6.4: scheduled recurring checkout finished or failed. */
  scheduleSubscription(session: CheckoutSession, sub: HostedSubscription, result: { success: boolean; message?: string }): void {
    this.send(sub.merchantId, "schedule_subscription", {
      purpose: "schedule_subscription",
      id: session.id,
      subscriptionId: sub.hid,
      merchantId: sub.merchantId,
      success: result.success,
      amount: sub.amount,
      currency: "twd",
      period: sub.period,
      numberOfPeriods: sub.numberOfPeriods,
      interval: sub.paymentInterval,
      startedAt: sub.startedAt,
      nextChargeAt: sub.nextChargeAt,
      paymentInfo: sub.card?.last4,
      customId: sub.customId,
      productDetails: sub.productDetails,
      message: result.message,
    })
  }

  /** 6.5: refund created, completed or cancelled. */
  refund(tx: HostedTransaction, refund: RefundRecord): void {
    this.send(tx.merchantId, "refund", {
      purpose: "refund",
      id: refundId(),
      refundId: refund.id,
      chargeId: tx.id,
      chargeHumanId: tx.hid,
      amount: refund.amount,
      origAmount: tx.amount,
      currency: "twd",
      refundStatus: refund.status,
      reason: refund.reason,
      paymentMethod: tx.paymentMethod,
      requestedAt: refund.requestedAt,
      resolvedAt: refund.resolvedAt,
      customId: tx.customId,
      subscriptionId: tx.subscriptionHid,
      period: tx.subscriptionHid ? tx.period : undefined,
    })
  }

  /** 6.6: recurring payment cancelled through the API or the admin console. */
  subscriptionCancelled(sub: HostedSubscription, source: "merchant_api" | "crm", fromStatus: ScheduleStatus): void {
    this.send(sub.merchantId, "subscription_cancelled", {
      purpose: "subscription_cancelled",
      subscriptionId: sub.hid,
      source,
      reason: sub.reason,
      cancelledAt: sub.cancelledAt,
      cancelledFromStatus: fromStatus,
      period: sub.period,
      numberOfPeriods: sub.numberOfPeriods,
      customId: sub.customId,
    })
  }

  /** 6.7: a failed period will be retried, or the retries are used up. */
  subscriptionRetry(
    sub: HostedSubscription,
    tx: HostedTransaction,
    outcome: { kind: "scheduled"; attempt: number; nextRetryAt: string } | { kind: "exhausted"; attempt: number }
  ): void {
    this.send(sub.merchantId, "subscription_retry", {
      purpose: "subscription_retry",
      outcome: outcome.kind,
      retryAttemptNumber: outcome.attempt,
      nextRetryAt: outcome.kind === "scheduled" ? outcome.nextRetryAt : undefined,
      failureCode: tx.failureCode,
      chargeId: tx.id,
      chargeHumanId: tx.hid,
      subscriptionId: sub.hid,
      period: tx.period,
    })
  }

  private send(merchantId: string, purpose: string, body: Record<string, unknown>): void {
    const merchant = this.core.merchants.get(merchantId)
    if (!merchant || (NEW_EVENT_PURPOSES.has(purpose) && !merchant.newEventOption)) {
      return
    }
    this.core.deliveries.enqueue({
      api: "hosted",
      merchantId,
      purpose,
      url: merchant.notifyUrl,
      body: withoutEmpty(body),
    })
  }
}
