import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { isProviderOf } from "../../../../../providers/core/provider-keys"
import { refundTwLatePaymentWorkflow } from "../../../../../workflows/refunds/refund-tw-late-payment"

interface PaymentRow {
  id: string
  provider_id: string
  amount: unknown
  captured_at: unknown
  refunds?: Array<{ id: string } | null> | null
  payment_collection?: { order?: { id: string; status: string } | null } | null
}

/**
 * POST /admin/tw-payments/:payment_id/cancelled-order-refund
 *
 * Returns, in full, a hosted-checkout payment that was paid after its order
 * was cancelled: a cvs/atm code paid late, which the pipeline records on the
 * cancelled order because the service refunds it only by remittance
 * (payment-decision.ts). Core's refund route refuses a cancelled order, so this
 * route checks the payment itself and runs `refund-tw-late-payment`, which
 * records the refund and the order's transaction with core's steps. The shopper's
 * bank account must be on the payment first
 * (`POST /admin/tw-payments/:payment_id/remittance`); the provider says so otherwise.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment",
    fields: ["id", "provider_id", "amount", "captured_at", "refunds.id", "payment_collection.order.id", "payment_collection.order.status"],
    filters: { id: req.params.payment_id },
  })
  const payment = data[0] as PaymentRow | undefined
  if (!payment) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment ${req.params.payment_id} was not found.`)
  }
  if (!isProviderOf("hosted-checkout", payment.provider_id)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Only hosted-checkout payments are refunded here.")
  }
  const order = payment.payment_collection?.order
  if (order?.status !== "canceled") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment's order is not cancelled: refund it from the order (POST /admin/payments/{id}/refund).")
  }
  if (!payment.captured_at || (payment.refunds ?? []).some(Boolean)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Only a captured payment that was not refunded yet can be returned.")
  }
  const amount = MathBN.convert(payment.amount as number).toNumber()
  await refundTwLatePaymentWorkflow(req.scope).run({ input: { payment_id: payment.id, order_id: order.id, amount, created_by: req.auth_context?.actor_id } })
  res.json({ payment_id: payment.id, order_id: order.id, refunded_amount: amount })
}
