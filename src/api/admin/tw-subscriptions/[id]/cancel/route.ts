import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cancelTwSubscriptionWorkflow } from "../../../../../workflows/subscriptions/cancel-tw-subscription"
import { subscriptionDetail } from "../../../../tw-subscriptions-shared/subscription-route-views"
import type { AdminCancelTwSubscriptionType } from "../../validators"

/** POST /admin/tw-subscriptions/:id/cancel { reason }: cancels at the service, then in the store. */
export async function POST(req: AuthenticatedMedusaRequest<AdminCancelTwSubscriptionType>, res: MedusaResponse) {
  await subscriptionDetail(req.scope, req.params.id)
  await cancelTwSubscriptionWorkflow(req.scope).run({ input: { subscription_id: req.params.id, reason: req.validatedBody.reason, by: "admin" } })
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { admin: true }) })
}
