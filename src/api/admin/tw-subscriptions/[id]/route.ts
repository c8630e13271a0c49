import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { subscriptionDetail } from "../../../tw-subscriptions-shared/subscription-route-views"

/** GET /admin/tw-subscriptions/:id: customer, plan, amount, periods (transaction number, order). */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { admin: true }) })
}
