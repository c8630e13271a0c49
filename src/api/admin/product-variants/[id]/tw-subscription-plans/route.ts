import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createTwSubscriptionPlanWorkflow } from "../../../../../workflows/subscriptions/create-tw-subscription-plan"
import { planView, subscriptions } from "../../../../tw-subscriptions-shared/subscription-route-views"
import type { AdminCreateTwSubscriptionPlanType } from "../../../tw-subscription-plans/validators"

/** GET /admin/product-variants/:id/tw-subscription-plans: every plan of the variant, inactive ones too. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const plans = await subscriptions(req.scope).listTwSubscriptionPlans({ variant_id: req.params.id }, { take: null, order: { created_at: "ASC" } })
  res.json({ plans: plans.map(planView) })
}

/** POST /admin/product-variants/:id/tw-subscription-plans: offers the variant as a subscription. */
export async function POST(req: AuthenticatedMedusaRequest<AdminCreateTwSubscriptionPlanType>, res: MedusaResponse) {
  const { result: plan } = await createTwSubscriptionPlanWorkflow(req.scope).run({ input: { ...req.validatedBody, variant_id: req.params.id } })
  res.json({ plan: planView(plan) })
}
