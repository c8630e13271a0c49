import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loggedInCustomer } from "../../../../logged-in-customer"
import { subscriptionListViews, subscriptions } from "../../../../tw-subscriptions-shared/subscription-route-views"
import type { StoreListTwSubscriptionsType } from "./validators"

/** GET /store/customers/me/tw-subscriptions: the logged-in customer's own subscriptions, newest first, each with its plan's title. */
export async function GET(req: AuthenticatedMedusaRequest<unknown, StoreListTwSubscriptionsType>, res: MedusaResponse) {
  const { take, skip, order } = req.listConfig
  const [rows, count] = await subscriptions(req.scope).listAndCountTwSubscriptions({ ...req.filterableFields, customer_id: loggedInCustomer(req) }, { take, skip, order })
  res.json({ subscriptions: await subscriptionListViews(req.scope, rows), count, limit: take, offset: skip })
}
