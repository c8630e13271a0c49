import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { TransactionStatus } from "../../lib/hosted"

/**
 * Transaction status (spec 3.1) as a Medusa payment session status, when a
 * session is authorized (cart completion, webhooks, reconciliation).
 * Paid is captured: the service captures when it charges. A code issued for a
 * convenience store or bank transfer places the order with payment awaiting.
 * Money already returned can never authorize a session.
 */
export const SESSION_STATUS: Readonly<Record<TransactionStatus, PaymentSessionStatus>> = {
  initiated: PaymentSessionStatus.REQUIRES_MORE,
  charging: PaymentSessionStatus.PENDING_AUTHORIZATION,
  charged: PaymentSessionStatus.CAPTURED,
  claimed: PaymentSessionStatus.CAPTURED,
  // The spec does not say what `authorized` means; treat it as held, not taken.
  authorized: PaymentSessionStatus.AUTHORIZED,
  failed: PaymentSessionStatus.ERROR,
  refunding: PaymentSessionStatus.CANCELED,
  refunded: PaymentSessionStatus.CANCELED,
  refundedPostPayout: PaymentSessionStatus.CANCELED,
  cancelled: PaymentSessionStatus.CANCELED,
}

/**
 * Transaction status as the action the event pipeline takes for a `charge`
 * notification or a reconciliation read (see `decide`). Refund states change
 * the Payment, not the session.
 */
export const WEBHOOK_ACTION: Readonly<Record<TransactionStatus, PaymentActions>> = {
  initiated: PaymentActions.REQUIRES_MORE,
  charging: PaymentActions.PENDING_AUTHORIZATION,
  charged: PaymentActions.SUCCESSFUL,
  claimed: PaymentActions.SUCCESSFUL,
  authorized: PaymentActions.AUTHORIZED,
  failed: PaymentActions.FAILED,
  refunding: PaymentActions.NOT_SUPPORTED,
  refunded: PaymentActions.NOT_SUPPORTED,
  refundedPostPayout: PaymentActions.NOT_SUPPORTED,
  cancelled: PaymentActions.CANCELED,
}

/** Statuses in which the shopper's money is with the merchant. */
export const PAID: ReadonlySet<TransactionStatus> = new Set(["charged", "claimed"])

/** Statuses after which a session has nothing more to learn from the service: failed or expired unpaid, cancelled, money returned. */
export const FINAL: ReadonlySet<TransactionStatus> = new Set(["failed", "cancelled", "refunding", "refunded", "refundedPostPayout"])
