import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cancelTwSubscriptionWorkflow } from "../../../../../../../workflows/subscriptions/cancel-subscription"
import { parseInput, storeCancelBodySchema } from "../../../../../../tw-subscriptions-shared/input"
import { subscriptionDetail } from "../../../../../../tw-subscriptions-shared/views"
import { loggedInCustomer } from "../../customer"

/** POST /store/customers/me/tw-subscriptions/:id/cancel: the customer cancels one of their own (anyone else's: 404). */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  const body = parseInput(storeCancelBodySchema, req.body, "cancel request")
  // Ownership first: another customer's id is "not found", and nothing is sent to the service.
  await subscriptionDetail(req.scope, req.params.id, { customerId })
  await cancelTwSubscriptionWorkflow(req.scope).run({ input: { subscription_id: req.params.id, reason: body.reason, by: "customer" } })
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { customerId }) })
}
