import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { TW_SUBSCRIPTION_MODULE } from "../../../../../modules/tw-subscription"
import { createPlanSchema, parseInput } from "../../../../tw-subscriptions-shared/input"
import { planView, subscriptions } from "../../../../tw-subscriptions-shared/views"

/** GET /admin/product-variants/:id/tw-subscription-plans: every plan of the variant, inactive ones too. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const plans = await subscriptions(req.scope).listTwSubscriptionPlans({ variant_id: req.params.id }, { take: null, order: { created_at: "ASC" } })
  res.json({ plans: plans.map(planView) })
}

/** POST /admin/product-variants/:id/tw-subscription-plans: offers the variant as a subscription. */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const body = parseInput(createPlanSchema, req.body, "plan")
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "product_variant", fields: ["id"], filters: { id: req.params.id } })
  if (!data[0]) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Product variant ${req.params.id} was not found.`)
  }
  const plan = await subscriptions(req.scope).createTwSubscriptionPlans({
    ...body,
    interval_months: body.kind === "monthly" ? 1 : body.interval_months,
    variant_id: req.params.id,
  })
  await req.scope.resolve(ContainerRegistrationKeys.LINK).create({ [Modules.PRODUCT]: { product_variant_id: req.params.id }, [TW_SUBSCRIPTION_MODULE]: { tw_subscription_plan_id: plan.id } })
  res.json({ plan: planView(plan) })
}
