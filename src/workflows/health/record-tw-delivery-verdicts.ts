import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { type DeliveryVerdicts, tallyDeliveryVerdictsStep } from "./steps/tally-tw-delivery-verdicts"

export const recordTwDeliveryVerdictsWorkflowId = "record-tw-delivery-verdicts"

/** What became of one notification or webhook (src/deliveries), counted for the health page and the metrics. */
export const recordTwDeliveryVerdictsWorkflow = createWorkflow(recordTwDeliveryVerdictsWorkflowId, (input: DeliveryVerdicts) => {
  const counted = tallyDeliveryVerdictsStep(input)
  return new WorkflowResponse({ counted })
})
