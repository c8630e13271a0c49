import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { subscriptionListViews, subscriptions } from "../../../../tw-subscriptions-shared/subscription-route-views"

/** GET /admin/orders/:id/tw-subscriptions: the subscription the order is the first or a renewal order of. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const module = subscriptions(req.scope)
  const periods = await module.listTwSubscriptionPeriods({ order_id: req.params.id }, { take: null, relations: ["subscription"] })
  const ids = [...new Set(periods.map((p) => p.subscription?.id).filter((id): id is string => !!id))]
  const firsts = await module.listTwSubscriptions({ first_order_id: req.params.id }, { take: null })
  const rows = ids.length ? await module.listTwSubscriptions({ id: ids }, { take: null }) : []
  const all = new Map([...rows, ...firsts].map((row) => [row.id, row]))
  res.json({ subscriptions: await subscriptionListViews(req.scope, [...all.values()]) })
}
