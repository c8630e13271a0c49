import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parseInput, storeListQuerySchema } from "../../../../tw-subscriptions-shared/input"
import { subscriptionListViews, subscriptions } from "../../../../tw-subscriptions-shared/views"
import { loggedInCustomer } from "./customer"

/** GET /store/customers/me/tw-subscriptions: the logged-in customer's own subscriptions, newest first, each with its plan's title. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  const q = parseInput(storeListQuerySchema, req.query, "query")
  const [rows, count] = await subscriptions(req.scope).listAndCountTwSubscriptions(
    { customer_id: customerId, ...(q.status ? { status: q.status } : {}) },
    { take: q.limit, skip: q.offset, order: { created_at: "DESC" } }
  )
  res.json({ subscriptions: await subscriptionListViews(req.scope, rows), count, limit: q.limit, offset: q.offset })
}
