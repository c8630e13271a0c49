import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parseInput, storeListQuerySchema } from "../../../../tw-subscriptions-shared/input"
import { subscriptions, subscriptionView } from "../../../../tw-subscriptions-shared/views"
import { loggedInCustomer } from "./customer"

/** GET /store/customers/me/tw-subscriptions: the logged-in customer's own subscriptions. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  const q = parseInput(storeListQuerySchema, req.query, "query")
  const [rows, count] = await subscriptions(req.scope).listAndCountTwSubscriptions(
    { customer_id: customerId, ...(q.status ? { status: q.status } : {}) },
    { take: q.limit, skip: q.offset, order: { created_at: "DESC" } }
  )
  res.json({ subscriptions: rows.map(subscriptionView), count, limit: q.limit, offset: q.offset })
}
