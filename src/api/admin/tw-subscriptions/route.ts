import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { subscriptionListViews, subscriptions } from "../../tw-subscriptions-shared/subscription-route-views"
import type { AdminListTwSubscriptionsType } from "./validators"

/** GET /admin/tw-subscriptions?status=&customer_id=&limit=&offset=: newest first, each row with its plan's title. */
export async function GET(req: AuthenticatedMedusaRequest<unknown, AdminListTwSubscriptionsType>, res: MedusaResponse) {
  const { take, skip, order } = req.listConfig
  const [rows, count] = await subscriptions(req.scope).listAndCountTwSubscriptions(req.filterableFields, { take, skip, order })
  res.json({ subscriptions: await subscriptionListViews(req.scope, rows), count, limit: take, offset: skip })
}
