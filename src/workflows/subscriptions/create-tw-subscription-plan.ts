import { Modules } from "@medusajs/framework/utils"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createRemoteLinkStep } from "@medusajs/medusa/core-flows"
import { TW_SUBSCRIPTION_MODULE } from "../../modules/tw-subscription"
import { createPlanStep } from "./steps/create-tw-subscription-plan"
import { ensureVariantStep } from "./steps/ensure-tw-plan-variant"

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
