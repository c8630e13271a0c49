import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { Transaction, TransactionStatus } from "../../lib/hosted"
import { SHOPPER_ERROR, type ShopperErrorCode } from "../core/shopper-error-codes"

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

/** Statuses in which money the shopper paid is going or gone back to them. */
export const REFUND_STATES: ReadonlySet<TransactionStatus> = new Set(["refunding", "refunded", "refundedPostPayout"])

/** Statuses after which a session has nothing more to learn from the service: failed or expired unpaid, cancelled, money returned. */
export const FINAL: ReadonlySet<TransactionStatus> = new Set(["failed", "cancelled", ...REFUND_STATES])

/** The `failureCode` values of the spec's notifications (6.2) as shopper codes. */
const FAILURE_CODES: Readonly<Record<string, ShopperErrorCode>> = {
  invalid_card_number: SHOPPER_ERROR.card_invalid_number,
  invalid_cvv: SHOPPER_ERROR.card_invalid_cvv,
  expired_card: SHOPPER_ERROR.card_expired,
  exceeds_credit_limit: SHOPPER_ERROR.card_insufficient_funds,
  payment_refused: SHOPPER_ERROR.card_declined,
  duplicate_payment: SHOPPER_ERROR.card_duplicate_payment,
  charge_failed: SHOPPER_ERROR.payment_failed,
}

/**
 * Why a failed transaction failed, as the shopper code its session data
 * carries (`errorCode`); undefined for any other status. The spec gives the
 * reason (`message`, `failureCode`) in notifications only: a read that carries
 * it anyway is used, else a cvs or atm payment failed because it expired
 * unpaid (spec 3.1), and anything else failed for no reason given.
 */
export function failureCode(tx: Transaction): ShopperErrorCode | undefined {
  if (tx.status !== "failed") {
    return undefined
  }
  const reason = tx as { message?: unknown; failureCode?: unknown }
  if (reason.message === "PAYMENT_EXPIRED") {
    return SHOPPER_ERROR.payment_code_expired
  }
  if (reason.message === "3DS_ABANDONED") {
    return SHOPPER_ERROR.three_d_secure_timeout
  }
  if (typeof reason.failureCode === "string" && FAILURE_CODES[reason.failureCode]) {
    return FAILURE_CODES[reason.failureCode]
  }
  return tx.paymentMethod === "cvs" || tx.paymentMethod === "atm" ? SHOPPER_ERROR.payment_code_expired : SHOPPER_ERROR.payment_failed
}
