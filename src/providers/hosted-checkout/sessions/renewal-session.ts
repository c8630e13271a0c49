import type { InitiatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { invoiceLines, type Transaction } from "../../../lib/hosted"
import type { HostedDeps } from "../provider-deps"
import { freshSessionData, type HostedSessionData, type StorefrontData } from "../hosted-checkout-session-data"
import { PAID } from "../hosted-checkout-status-map"
import type { RenewalTerms } from "../subscription-terms"

/**
 * A renewal order's payment: the period the service already charged, as the
 * subscription workflow's sealed read says (no read here), sealed again for
 * the session, so the authorization that follows does not read either.
 * With e-invoices on, the period was invoiced on its checkout's lines, which
 * the renewal workflow passes as `lines`: a refund's allowances share them out.
 */
export function initiateRenewal({ attestor, options, productLine }: HostedDeps, amount: number, input: StorefrontData, terms: RenewalTerms): InitiatePaymentOutput {
  const sessionId = input.session_id
  const read = renewalPayment(terms, amount)
  const sessionData: HostedSessionData = {
    ...freshSessionData,
    session_id: sessionId,
    transactionId: read.transaction_id,
    transactionHid: read.transaction_hid,
    checkoutUrl: "",
    expiresAt: "",
    amount,
    status: read.status as HostedSessionData["status"],
    paymentMethod: read.payment_method ?? undefined,
    paymentInfo: read.payment_info ?? undefined,
    paidAt: read.paid_at ?? undefined,
    customId: terms.custom_id,
    subscription: { id: terms.subscription_id, kind: terms.kind, checkoutId: read.transaction_id, startDate: null, firstChargeLater: false, period: terms.period },
    attestation: attestor.seal({ sessionId, serviceId: read.transaction_id, amount, status: read.status }),
    ...(options.einvoice ? { invoiceLines: invoiceLines(input.lines ?? [], amount, productLine) } : {}),
  }
  return { id: read.transaction_id, status: PaymentSessionStatus.PENDING, data: { ...sessionData } }
}

/**
 * A renewal payment: no page, the service already charged the period. The
 * transaction is not read again: the sealed terms carry the subscription
 * workflow's read of it (this merchant, this checkout), which must say paid
 * and be of the period's amount.
 */
export function renewalPayment(terms: RenewalTerms, amount: number): RenewalTerms {
  if (terms.amount !== amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `A renewal of ${terms.amount} TWD cannot pay ${amount} TWD.`)
  }
  if (!PAID.has(terms.status as Transaction["status"])) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Transaction ${terms.transaction_hid} is not a paid period of this subscription.`)
  }
  return terms
}
