import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listQuerySchema, parseInput } from "../../tw-subscriptions-shared/input"
import { subscriptionListViews, subscriptions } from "../../tw-subscriptions-shared/views"

/** GET /admin/tw-subscriptions?status=&customer_id=&limit=&offset=: newest first, each row with its plan's title. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const q = parseInput(listQuerySchema, req.query, "query")
  const [rows, count] = await subscriptions(req.scope).listAndCountTwSubscriptions(
    { ...(q.status ? { status: q.status } : {}), ...(q.customer_id ? { customer_id: q.customer_id } : {}) },
    { take: q.limit, skip: q.offset, order: { created_at: "DESC" } }
  )
  res.json({
    subscriptions: await subscriptionListViews(req.scope, rows),
    count,
    limit: q.limit,
    offset: q.offset,
  })
}
