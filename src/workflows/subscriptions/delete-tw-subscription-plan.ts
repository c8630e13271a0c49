import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { removeRemoteLinkStep } from "@medusajs/medusa/core-flows"
import { TW_SUBSCRIPTION_MODULE } from "../../modules/tw-subscription"
import { softDeletePlanStep } from "./steps/soft-delete-tw-subscription-plan"

export const deleteTwSubscriptionPlanWorkflowId = "delete-tw-subscription-plan"

/** A plan no longer offered: the plan, then its link to the variant (core's step, undone by restoring the link). */
export const deleteTwSubscriptionPlanWorkflow = createWorkflow(deleteTwSubscriptionPlanWorkflowId, (input: { id: string }) => {
  softDeletePlanStep(input.id)
  removeRemoteLinkStep({ [TW_SUBSCRIPTION_MODULE]: { tw_subscription_plan_id: input.id } }).config({ name: "unlink-tw-subscription-plan-variant" })
  return new WorkflowResponse({ id: input.id })
})
