import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { listOwedRefundsStep } from "./steps/list-tw-owed-refunds"
import { refundOwedStep } from "./steps/refund-tw-owed-payments"

export const refundTwCancelledOrderWorkflowId = "refund-tw-cancelled-order"

/**
 * A cancelled order whose payment of this plugin kept its money: core's
 * `cancelOrderWorkflow` refunds captured payments but only logs a refund that
 * fails, and the order is cancelled all the same. Run after `order.canceled`
 * and by the job `reconcile-tw-cancelled-orders` until nothing is owed.
 */
export const refundTwCancelledOrderWorkflow = createWorkflow(refundTwCancelledOrderWorkflowId, (orderId: string) => {
  // The subscriber and the job may run at once: each reads what is owed only once the other has recorded its refund.
  const lockKey = transform({ orderId }, ({ orderId }) => `medusa-payment-tw:owed-refund:${orderId}`)
  acquireLockStep({ key: lockKey, timeout: 60, ttl: 300 })
  const owed = listOwedRefundsStep(orderId)
  const refunded = refundOwedStep({ orderId, owed })
  releaseLockStep({ key: lockKey })
  return new WorkflowResponse(refunded)
})
