import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { CreateTwSubscriptionPlanInput } from "./create-tw-subscription-plan"
import { updatePlanStep } from "./steps/update-tw-subscription-plan"

export const updateTwSubscriptionPlanWorkflowId = "update-tw-subscription-plan"

export type UpdateTwSubscriptionPlanInput = { id: string } & Partial<Omit<CreateTwSubscriptionPlanInput, "variant_id">>

/** Changes a plan; running subscriptions keep the terms they started with. */
export const updateTwSubscriptionPlanWorkflow = createWorkflow(updateTwSubscriptionPlanWorkflowId, (input: UpdateTwSubscriptionPlanInput) => {
  return new WorkflowResponse(updatePlanStep(input))
})
