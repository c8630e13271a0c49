import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { deleteTwSubscriptionPlanWorkflow } from "../../../../workflows/subscriptions/delete-tw-subscription-plan"
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
  const body = req.validatedBody
  const plan = await existing(req)
  const kind = body.kind ?? plan.kind
  const merged = { interval_months: body.interval_months ?? plan.interval_months, first_charge_delay_days: body.first_charge_delay_days ?? plan.first_charge_delay_days }
  if (kind === "monthly" && (merged.interval_months !== 1 || merged.first_charge_delay_days !== 0)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Invalid plan: a monthly plan charges every month from checkout (interval_months 1, first_charge_delay_days 0).")
  }
  const updated = await subscriptions(req.scope).updateTwSubscriptionPlans({ id: plan.id, ...body })
  res.json({ plan: planView(updated) })
}

/** DELETE /admin/tw-subscription-plans/:id: no longer offered; running subscriptions are not affected. */
export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const plan = await existing(req)
  await deleteTwSubscriptionPlanWorkflow(req.scope).run({ input: { id: plan.id } })
  res.json({ id: plan.id, object: "tw_subscription_plan", deleted: true })
}
