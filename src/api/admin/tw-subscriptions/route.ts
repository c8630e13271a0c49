import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listQuerySchema, parseInput } from "../../tw-subscriptions-shared/input"
import { subscriptions, subscriptionView } from "../../tw-subscriptions-shared/views"

/** GET /admin/tw-subscriptions?status=&customer_id=&limit=&offset=: newest first, each row with its plan's title. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const q = parseInput(listQuerySchema, req.query, "query")
  const module = subscriptions(req.scope)
  const [rows, count] = await module.listAndCountTwSubscriptions(
    { ...(q.status ? { status: q.status } : {}), ...(q.customer_id ? { customer_id: q.customer_id } : {}) },
    { take: q.limit, skip: q.offset, order: { created_at: "DESC" } }
  )
  // One query for the page's plans; a deleted plan still names the subscriptions that started on it.
  const planIds = [...new Set(rows.map((row) => row.plan_id).filter((id): id is string => !!id))]
  const plans = planIds.length ? await module.listTwSubscriptionPlans({ id: planIds }, { take: null, select: ["id", "title"], withDeleted: true }) : []
  const titles = new Map(plans.map((plan) => [plan.id, plan.title]))
  res.json({
    subscriptions: rows.map((row) => ({ ...subscriptionView(row), plan_title: (row.plan_id && titles.get(row.plan_id)) ?? null })),
    count,
    limit: q.limit,
    offset: q.offset,
  })
}
