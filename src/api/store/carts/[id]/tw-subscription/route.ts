import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { startTwSubscriptionCheckoutWorkflow } from "../../../../../workflows/subscriptions/start-tw-subscription-checkout"
import { loggedInCustomer } from "../../../../logged-in-customer"
import { subscriptionView } from "../../../../tw-subscriptions-shared/subscription-route-views"
import type { StoreStartTwSubscriptionCheckoutType } from "./validators"

/**
 * POST /store/carts/:id/tw-subscription
 *
 * Starts a subscription checkout. The storefront only names the plan: the
 * amount is the cart's total, the terms come from the plan, and the payment
 * session is created here with the terms sealed in its context, so the
 * provider opens the recurring or scheduled page. A session created through
 * the storefront's own route is always a one-time payment. The checks and
 * writes are the workflow `start-tw-subscription-checkout`.
 *
 * With `saved_card_id` (a saved card of the customer's) there is no page:
 * the storefront completes the cart, and the completion subscribes the card
 * (`POST /token/subscriptions`, saved-card-completion.ts), charging the first
 * period at once or creating the schedule of a later first charge.
 */
export async function POST(req: AuthenticatedMedusaRequest<StoreStartTwSubscriptionCheckoutType>, res: MedusaResponse) {
  const { result } = await startTwSubscriptionCheckoutWorkflow(req.scope).run({
    input: { ...req.validatedBody, cart_id: req.params.id, customer_id: loggedInCustomer(req) },
  })
  const { subscription, payment_session: session } = result
  res.json({
    subscription: subscriptionView(subscription),
    payment_session: { id: session.id, provider_id: session.provider_id, status: session.status, amount: session.amount, data: session.data },
  })
}
