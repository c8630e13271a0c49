import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { planView, subscriptions } from "../../tw-subscriptions-shared/subscription-route-views"
import type { StoreListTwSubscriptionPlansType } from "./validators"

/** GET /store/tw-subscription-plans?product_id= | variant_id=: the active plans offered. */
export async function GET(req: MedusaRequest<unknown, StoreListTwSubscriptionPlansType>, res: MedusaResponse) {
  const q = req.validatedQuery
  let variantIds = q.variant_id ? [q.variant_id] : []
  if (q.product_id) {
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "product_variant", fields: ["id"], filters: { product_id: q.product_id } })
    variantIds = data.map((v: { id: string }) => v.id)
  }
  const plans = variantIds.length ? await subscriptions(req.scope).listTwSubscriptionPlans({ variant_id: variantIds, active: true }, { take: null, order: { created_at: "ASC" } }) : []
  res.json({ plans: plans.map(planView) })
}
