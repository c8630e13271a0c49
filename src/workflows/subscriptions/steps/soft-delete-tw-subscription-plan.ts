import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"

/**
 * Soft: running subscriptions keep their `plan_id`, and their lists still
 * show the deleted plan's title. Undone by restoring it.
 */
export const softDeletePlanStep = createStep(
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
