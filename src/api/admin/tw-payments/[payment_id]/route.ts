import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { isProviderOf } from "../../../../providers/core/provider-keys"
import { DEFAULT_INVOICE_SUMMARY, type HostedSessionData, invoiceSummary, maskAccount } from "../../../../providers/hosted-checkout/public"
import type { TwPaymentResponse } from "../../../../shared/payment-views"

/**
 * GET /admin/tw-payments/:payment_id
 *
 * What the admin needs to see of a hosted-checkout payment: method, service
 * status, the cvs/atm code, the one refund, and whether remittance details are
 * on file (masked), and the e-invoice choice (personal carriers masked). Read from the payment's data, which every notification,
 * reconciliation and refund keeps current.
 */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse<TwPaymentResponse>) {
  const paymentModule = req.scope.resolve(Modules.PAYMENT)
  const payment = await paymentModule.retrievePayment(req.params.payment_id, { select: ["id", "provider_id", "data", "amount", "currency_code"] })
  if (!isProviderOf("hosted-checkout", payment.provider_id)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Not a hosted-checkout payment.")
  }
  // The provider writes the data (hosted-checkout-session-data.ts); a payment still waiting has only some of it.
  const data = (payment.data ?? {}) as Partial<HostedSessionData>
  const needsRemittance = (data.paymentMethod === "cvs" || data.paymentMethod === "atm") && !data.refund
  res.json({
    payment: {
      id: payment.id,
      transaction_hid: data.transactionHid,
      status: data.status,
      payment_method: data.paymentMethod,
      payment_info: data.paymentInfo,
      paid_at: data.paidAt,
      refund: data.refund ?? null,
      needs_remittance: needsRemittance,
      remittance: data.remitInfo ? { bank_name: data.remitInfo.bankName, account: maskAccount(data.remitInfo.account) } : null,
      // Invoiced payments keep their lines; one without a storefront choice went to the member carrier.
      invoice: invoiceSummary(data.invoice) ?? (data.invoiceLines ? DEFAULT_INVOICE_SUMMARY : null),
    },
  })
}
