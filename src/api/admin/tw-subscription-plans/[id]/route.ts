import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { deleteTwSubscriptionPlanWorkflow } from "../../../../workflows/subscriptions/delete-tw-subscription-plan"
import { updateTwSubscriptionPlanWorkflow } from "../../../../workflows/subscriptions/update-tw-subscription-plan"
import { planView, subscriptions } from "../../../tw-subscriptions-shared/subscription-route-views"
import type { AdminUpdateTwSubscriptionPlanType } from "../validators"

async function existing(req: AuthenticatedMedusaRequest) {
  const [plan] = await subscriptions(req.scope).listTwSubscriptionPlans({ id: req.params.id }, { take: 1 })
  if (!plan) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Subscription plan ${req.params.id} was not found.`)
  }
  return plan
}

/** POST /admin/tw-subscription-plans/:id: changes a plan; running subscriptions keep the terms they started with. */
export async function POST(req: AuthenticatedMedusaRequest<AdminUpdateTwSubscriptionPlanType>, res: MedusaResponse) {
  const { result } = await updateTwSubscriptionPlanWorkflow(req.scope).run({ input: { id: req.params.id, ...req.validatedBody } })
  res.json({ plan: planView(result) })
}

/** DELETE /admin/tw-subscription-plans/:id: no longer offered; running subscriptions are not affected. */
export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const plan = await existing(req)
  await deleteTwSubscriptionPlanWorkflow(req.scope).run({ input: { id: plan.id } })
  res.json({ id: plan.id, object: "tw_subscription_plan", deleted: true })
}
