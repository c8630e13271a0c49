import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cancelTwSubscriptionWorkflow } from "../../../../../../../workflows/subscriptions/cancel-subscription"
import { loggedInCustomer } from "../../../../../../logged-in-customer"
import { subscriptionDetail } from "../../../../../../tw-subscriptions-shared/views"
import type { StoreCancelTwSubscriptionType } from "../../validators"

/** POST /store/customers/me/tw-subscriptions/:id/cancel: the customer cancels one of their own (anyone else's: 404). */
export async function POST(req: AuthenticatedMedusaRequest<StoreCancelTwSubscriptionType>, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  // Ownership first: another customer's id is "not found", and nothing is sent to the service.
  await subscriptionDetail(req.scope, req.params.id, { customerId })
  await cancelTwSubscriptionWorkflow(req.scope).run({ input: { subscription_id: req.params.id, reason: req.validatedBody.reason, by: "customer" } })
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { customerId }) })
}
