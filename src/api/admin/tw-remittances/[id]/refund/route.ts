import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { RemitInfo } from "../../../../../providers/hosted-checkout/public"
import { refundTwRemittanceWorkflow } from "../../../../../workflows/refunds/refund-tw-remittance"

/**
 * POST /admin/tw-remittances/:id/refund
 *
 * Refunds money due for remittance, in full, to the bank account in the body
 * (the shopper's, which the merchant asked for). The account goes to the
 * service only: it is neither stored nor answered.
 */
export async function POST(req: AuthenticatedMedusaRequest<RemitInfo>, res: MedusaResponse) {
  const { result } = await refundTwRemittanceWorkflow(req.scope).run({ input: { id: req.params.id, remitInfo: req.validatedBody } })
  res.json({ remittance: result.remittance, refunded_now: result.refundedNow })
}
