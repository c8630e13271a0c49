import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { RemitInfo } from "../../providers/hosted-checkout/public"
import { loadRemittanceDueStep } from "./steps/load-tw-remittance-due"
import { markRemittanceRefundedStep } from "./steps/mark-tw-remittance-refunded"
import { refundRemittanceAtServiceStep } from "./steps/refund-tw-remittance-at-service"

export const refundTwRemittanceWorkflowId = "refund-tw-remittance"

export interface RefundTwRemittanceInput {
  /** A `tw_remittance_due` row still due. */
  id: string
  /** The shopper's bank account; sent to the service only, never stored. */
  remitInfo: RemitInfo
}

/**
 * A merchant returns money the store holds no order for (a cvs code or bank
 * transfer paid for a dropped session or an unfulfillable cart) to the
 * shopper's bank account: the row, the refund at the service from a fresh
 * read, then the row marked refunded. A run that fails after the refund is
 * run again safely: the read shows the refund, and only the mark is made.
 */
export const refundTwRemittanceWorkflow = createWorkflow(refundTwRemittanceWorkflowId, (input: RefundTwRemittanceInput) => {
  const due = loadRemittanceDueStep({ id: input.id })
  const refund = transform({ due, input }, ({ due, input }) => ({ ...due, remitInfo: input.remitInfo }))
  const { made } = refundRemittanceAtServiceStep(refund)
  const row = markRemittanceRefundedStep({ id: input.id })
  return new WorkflowResponse({ remittance: row, refundedNow: made })
})
