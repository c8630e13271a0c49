import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { subscriptionListViews, subscriptions } from "../../../../tw-subscriptions-shared/subscription-route-views"

/** GET /admin/customers/:id/tw-subscriptions: the customer page's subscriptions. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const rows = await subscriptions(req.scope).listTwSubscriptions({ customer_id: req.params.id }, { take: null, order: { created_at: "DESC" } })
  res.json({ subscriptions: await subscriptionListViews(req.scope, rows) })
}
