import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cancelTwSubscriptionWorkflow } from "../../../../../workflows/subscriptions/cancel-subscription"
import { cancelBodySchema, parseInput } from "../../../../tw-subscriptions-shared/input"
import { subscriptionDetail } from "../../../../tw-subscriptions-shared/views"

/** POST /admin/tw-subscriptions/:id/cancel { reason }: cancels at the service, then in the store. */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const body = parseInput(cancelBodySchema, req.body, "cancel request")
  await subscriptionDetail(req.scope, req.params.id)
  await cancelTwSubscriptionWorkflow(req.scope).run({ input: { subscription_id: req.params.id, reason: body.reason, by: "admin" } })
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { admin: true }) })
}
