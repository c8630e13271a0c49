import { PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PaymentIntentStatus } from "../../lib/embedded"

/**
 * Payment intent status (spec 3.1) as a Medusa session status. `processing`
 * places the order with payment awaiting; the service settles it within about
 * 20 minutes and the webhook or the reconciliation job finishes the job.
 */
export const SESSION_STATUS: Readonly<Record<PaymentIntentStatus, PaymentSessionStatus>> = {
  created: PaymentSessionStatus.REQUIRES_MORE,
  requiresPaymentMethod: PaymentSessionStatus.REQUIRES_MORE,
  requiresAction: PaymentSessionStatus.REQUIRES_MORE,
  processing: PaymentSessionStatus.PENDING_AUTHORIZATION,
  succeeded: PaymentSessionStatus.CAPTURED,
  failed: PaymentSessionStatus.ERROR,
  canceled: PaymentSessionStatus.CANCELED,
}

/** The same statuses as the action a webhook (or the job) asks Medusa to take. */
export const WEBHOOK_ACTION: Readonly<Record<PaymentIntentStatus, PaymentActions>> = {
  created: PaymentActions.NOT_SUPPORTED,
  requiresPaymentMethod: PaymentActions.REQUIRES_MORE,
  requiresAction: PaymentActions.REQUIRES_MORE,
  processing: PaymentActions.PENDING_AUTHORIZATION,
  succeeded: PaymentActions.SUCCESSFUL,
  failed: PaymentActions.FAILED,
  canceled: PaymentActions.CANCELED,
}

export const FINAL: ReadonlySet<PaymentIntentStatus> = new Set(["succeeded", "failed", "canceled"])
