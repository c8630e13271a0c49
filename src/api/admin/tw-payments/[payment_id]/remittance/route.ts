import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { UpdatePaymentDTO } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { isProviderOf } from "../../../../../providers/core/provider-keys"
import { maskAccount } from "../../../../../providers/hosted-checkout/public"
import type { RemittanceFields } from "../../../../../shared/payment-views"
import type { AdminTwPaymentRemittanceType } from "../../validators"

/**
 * POST /admin/tw-payments/:payment_id/remittance
 *
 * Stores the shopper's bank account on a paid convenience-store or ATM payment
 * of the hosted-checkout provider, so that the next refund of it can be sent:
 * the service refunds those payments by remittance (spec 4.10). The account
 * is dropped from the payment once the refund is made.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminTwPaymentRemittanceType>, res: MedusaResponse<{ payment_id: string; remittance: RemittanceFields }>) {
  const remitInfo = req.validatedBody
  const paymentModule = req.scope.resolve(Modules.PAYMENT)
  const payment = await paymentModule.retrievePayment(req.params.payment_id, { select: ["id", "provider_id", "data"] })
  const data = (payment.data ?? {}) as Record<string, unknown>
  if (!isProviderOf("hosted-checkout", payment.provider_id)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Remittance details apply to hosted-checkout payments only.")
  }
  if (data.paymentMethod !== "cvs" && data.paymentMethod !== "atm") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Only convenience-store and ATM payments are refunded by remittance; refund this payment directly.")
  }
  // The payment module's update passes `data` through; its DTO type does not list it.
  await paymentModule.updatePayment({ id: payment.id, data: { ...data, remitInfo } } as UpdatePaymentDTO)
  res.json({ payment_id: payment.id, remittance: { ...remitInfo, account: maskAccount(remitInfo.account) } })
}
