import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { CreateTwSubscriptionPlanInput } from "../create-tw-subscription-plan"

/** Undone by deleting the plan outright: nobody can have subscribed to it yet. */
export const createPlanStep = createStep(
  "create-tw-subscription-plan",
  async (input: CreateTwSubscriptionPlanInput, { container }) => {
    // A monthly plan charges every month (the validator refuses anything else; this keeps the row exact).
    const plan = await subscriptionModule(container).createTwSubscriptionPlans({ ...input, interval_months: input.kind === "monthly" ? 1 : input.interval_months })
    return new StepResponse(plan, plan.id)
  },
  async (id, { container }) => {
    if (id) {
      await subscriptionModule(container).deleteTwSubscriptionPlans(id)
    }
  }
)
