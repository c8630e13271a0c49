import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createRemoteLinkStep } from "@medusajs/medusa/core-flows"
import { TW_SUBSCRIPTION_MODULE } from "../../modules/tw-subscription"
import { subscriptionModule } from "../../subscriptions/subscription-module"

export const createTwSubscriptionPlanWorkflowId = "create-tw-subscription-plan"

export interface CreateTwSubscriptionPlanInput {
  variant_id: string
  title: string
  kind: "monthly" | "scheduled"
  interval_months: number
  periods: number | null
  first_charge_delay_days: number
  active: boolean
}

const ensureVariantStep = createStep("ensure-tw-plan-variant", async (variantId: string, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "product_variant", fields: ["id"], filters: { id: variantId } })
  if (!data[0]) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Product variant ${variantId} was not found.`)
  }
  return new StepResponse(undefined)
})

/** Undone by deleting the plan outright: nobody can have subscribed to it yet. */
const createPlanStep = createStep(
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

/** Offers a variant as a subscription: the plan, then its link to the variant (core's link step, undone by dismissing it). */
export const createTwSubscriptionPlanWorkflow = createWorkflow(createTwSubscriptionPlanWorkflowId, (input: CreateTwSubscriptionPlanInput) => {
  ensureVariantStep(input.variant_id)
  const plan = createPlanStep(input)
  const link = transform({ plan }, ({ plan }) => [
    { [Modules.PRODUCT]: { product_variant_id: plan.variant_id }, [TW_SUBSCRIPTION_MODULE]: { tw_subscription_plan_id: plan.id } },
  ])
  createRemoteLinkStep(link).config({ name: "link-tw-subscription-plan-variant" })
  return new WorkflowResponse(plan)
})
