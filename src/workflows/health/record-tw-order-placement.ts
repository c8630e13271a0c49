import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { recordOrderPlacementStep } from "./steps/record-tw-order-placement"

export const recordTwOrderPlacementWorkflowId = "record-tw-order-placement"

/**
 * An order placed outside the payment pipeline (the shopper's own cart completion, `order.placed`): kept as
 * placed by the shopper's return, unless the pipeline's step already recorded it as its own.
 */
export const recordTwOrderPlacementWorkflow = createWorkflow(recordTwOrderPlacementWorkflowId, (input: { orderId: string }) => {
  const inserted = recordOrderPlacementStep({ orderId: input.orderId, path: "return", override: false })
  return new WorkflowResponse({ inserted })
})
