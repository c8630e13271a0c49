import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { removeRemoteLinkStep } from "@medusajs/medusa/core-flows"
import { TW_SUBSCRIPTION_MODULE } from "../../modules/tw-subscription"
import { subscriptionModule } from "../../subscriptions/subscription-module"

export const deleteTwSubscriptionPlanWorkflowId = "delete-tw-subscription-plan"

/**
 * Soft: running subscriptions keep their `plan_id`, and their lists still
 * show the deleted plan's title. Undone by restoring it.
 */
const softDeletePlanStep = createStep(
  "soft-delete-tw-subscription-plan",
  async (id: string, { container }) => {
    await subscriptionModule(container).softDeleteTwSubscriptionPlans(id)
    return new StepResponse(undefined, id)
  },
  async (id, { container }) => {
    if (id) {
      await subscriptionModule(container).restoreTwSubscriptionPlans(id)
    }
  }
)

/** A plan no longer offered: the plan, then its link to the variant (core's step, undone by restoring the link). */
export const deleteTwSubscriptionPlanWorkflow = createWorkflow(deleteTwSubscriptionPlanWorkflowId, (input: { id: string }) => {
  softDeletePlanStep(input.id)
  removeRemoteLinkStep({ [TW_SUBSCRIPTION_MODULE]: { tw_subscription_plan_id: input.id } }).config({ name: "unlink-tw-subscription-plan-variant" })
  return new WorkflowResponse({ id: input.id })
})
