import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { UpdateTwSubscriptionPlanInput } from "../update-tw-subscription-plan"

/**
 * Changes a plan after checking the result against the service's rule for
 * monthly plans (spec 4.2): the request alone may not say the plan's kind or
 * interval. Undone by writing the plan's earlier values back.
 */
export const updatePlanStep = createStep(
  "update-tw-subscription-plan",
  async ({ id, ...changes }: UpdateTwSubscriptionPlanInput, { container }) => {
    const module = subscriptionModule(container)
    const [plan] = await module.listTwSubscriptionPlans({ id }, { take: 1 })
    if (!plan) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Subscription plan ${id} was not found.`)
    }
    const kind = changes.kind ?? plan.kind
    const intervalMonths = changes.interval_months ?? plan.interval_months
    const delayDays = changes.first_charge_delay_days ?? plan.first_charge_delay_days
    if (kind === "monthly" && (intervalMonths !== 1 || delayDays !== 0)) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Invalid plan: a monthly plan charges every month from checkout (interval_months 1, first_charge_delay_days 0).")
    }
    const before = Object.fromEntries(Object.keys(changes).map((key) => [key, plan[key as keyof typeof plan]]))
    const updated = await module.updateTwSubscriptionPlans({ id, ...changes })
    return new StepResponse(updated, { id, ...before })
  },
  async (before, { container }) => {
    if (before) {
      await subscriptionModule(container).updateTwSubscriptionPlans(before)
    }
  }
)
