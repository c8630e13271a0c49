import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { awaitsFirstCharge, sessionSubscription } from "../../../providers/hosted-checkout/public"
import { processTwPaymentWorkflow } from "../../payments/process-tw-payment"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { FirstOrderState, KeptSubscription } from "../decisions/subscription-state"
import { firstOrderOfCart, type SubscriptionRow } from "./load-tw-subscription"

export interface PlacedFirstOrder {
  firstOrder: FirstOrderState | null
  /** The row's status after the placement: a first order the store could not place (out of stock) ends the subscription. */
  current: Pick<KeptSubscription, "status" | "cancel_reason"> & { cancelled_at: string | null }
}

/**
 * The shopper never returned from a paid (or card-binding) page. A page paid
 * at once goes through the payment pipeline (one read, sealed, completes the
 * cart); a later first charge completes the cart awaiting payment.
 */
async function placeFirstOrder(container: MedusaContainer, row: SubscriptionRow, data: Record<string, unknown>) {
  if (awaitsFirstCharge(data)) {
    // .run(), not runAsStep: with throwOnError: false, a failed completion is checked against an order placed meanwhile; and core's cart lock, which a sub-workflow skips, is taken
    const { errors } = await completeCartWorkflow(container).run({ input: { id: row.cart_id }, throwOnError: false })
    if (errors?.length && !(await firstOrderOfCart(container, row.cart_id))) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Cart ${row.cart_id} of subscription ${row.id} could not be completed: ${errors[0].error?.message}`)
    }
    return
  }
  const checkoutId = sessionSubscription(data)?.checkoutId
  if (checkoutId) {
    // .run(), not runAsStep: the pipeline takes its cart lock (a sub-workflow skips it), and the order it places is the shopper's, standing if this sync fails later
    await processTwPaymentWorkflow(container).run({ input: { provider: row.provider_key, serviceId: checkoutId } })
  }
}

/**
 * The checkout was paid (or the card bound) but its cart was never
 * completed: the first order is placed. Not undone when a later step fails:
 * the order is the payment pipeline's (the shopper paid), which has its own
 * compensations; the next run finds it.
 */
export const placeTwSubscriptionFirstOrderStep = createStep(
  "place-tw-subscription-first-order",
  async ({ subscription, data }: { subscription: SubscriptionRow; data: Record<string, unknown> }, { container }) => {
    await placeFirstOrder(container, subscription, data)
    const firstOrder = (await firstOrderOfCart(container, subscription.cart_id)) ?? null
    const row = await subscriptionModule(container).retrieveTwSubscription(subscription.id, { select: ["status", "cancelled_at", "cancel_reason"] })
    const current = { status: row.status, cancelled_at: row.cancelled_at ? new Date(row.cancelled_at).toISOString() : null, cancel_reason: row.cancel_reason }
    return new StepResponse<PlacedFirstOrder>({ firstOrder, current })
  }
)
