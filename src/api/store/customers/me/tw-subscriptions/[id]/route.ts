import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { subscriptionDetail } from "../../../../../tw-subscriptions-shared/subscription-route-views"
import { loggedInCustomer } from "../../../../../logged-in-customer"

/** GET /store/customers/me/tw-subscriptions/:id: one of the customer's own, with its periods; anyone else's is 404. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { customerId: loggedInCustomer(req) }) })
}
