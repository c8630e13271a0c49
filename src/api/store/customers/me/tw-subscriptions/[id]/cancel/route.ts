import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { SHOPPER_ERROR, withShopperCode } from "../../../../../../../providers/core/shopper-error-codes"
import { cancelTwSubscriptionWorkflow } from "../../../../../../../workflows/subscriptions/cancel-tw-subscription"
import { loggedInCustomer } from "../../../../../../logged-in-customer"
import { subscriptionDetail } from "../../../../../../tw-subscriptions-shared/subscription-route-views"
import type { StoreCancelTwSubscriptionType } from "../../validators"

/** POST /store/customers/me/tw-subscriptions/:id/cancel: the customer cancels one of their own (anyone else's: 404). */
export async function POST(req: AuthenticatedMedusaRequest<StoreCancelTwSubscriptionType>, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  // Ownership first: another customer's id is "not found", and nothing is sent to the service.
  await subscriptionDetail(req.scope, req.params.id, { customerId })
  await cancelTwSubscriptionWorkflow(req.scope)
    .run({ input: { subscription_id: req.params.id, reason: req.validatedBody.reason, by: "customer" } })
    // A refusal (already over, just starting, a charge running) or an unclear answer: nothing was changed.
    .catch((error: unknown) =>
      Promise.reject(
        withShopperCode(error, (error as { type?: string }).type === MedusaError.Types.NOT_ALLOWED ? SHOPPER_ERROR.subscription_not_cancellable : SHOPPER_ERROR.subscription_cancel_failed)
      )
    )
  res.json({ subscription: await subscriptionDetail(req.scope, req.params.id, { customerId }) })
}
