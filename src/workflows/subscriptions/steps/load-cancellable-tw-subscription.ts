import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"

export const FINAL = new Set(["stopped", "completed", "cancelled"])

export const alreadyOver = (row: { id: string; status: string }) =>
  new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${row.id} is already ${row.status}; nothing was changed.`)

/** Read under the subscription's lock: what the cancellation acts on. */
export const loadCancellableStep = createStep("load-cancellable-tw-subscription", async (id: string, { container }) => {
  const row = await subscriptionModule(container).retrieveTwSubscription(id)
  if (FINAL.has(row.status)) {
    throw alreadyOver(row)
  }
  if (!row.service_subscription_id && row.status !== "pending") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The payment service has not yet told the store the number of subscription ${row.id}; nothing was changed. Try again in a minute.`
    )
  }
  return new StepResponse({ id: row.id, status: row.status, provider_key: row.provider_key, cart_id: row.cart_id, payment_session_id: row.payment_session_id, hid: row.service_subscription_id })
})
