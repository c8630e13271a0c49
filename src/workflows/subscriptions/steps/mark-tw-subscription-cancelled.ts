import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { SubscriptionStatus } from "../../../modules/tw-subscription/models/subscription"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { CancelTwSubscriptionInput } from "../cancel-tw-subscription"

type Previous = { id: string; status: SubscriptionStatus; cancel_reason: string | null; cancelled_at: Date | null; next_charge_at: Date | null }

/** The store side first, since it can be undone: a service that then refuses leaves the subscription as it was. */
export const markCancelledStep = createStep(
  "mark-tw-subscription-cancelled",
  async ({ id, reason, by }: CancelTwSubscriptionInput & { id: string }, { container }) => {
    const module = subscriptionModule(container)
    const before = await module.retrieveTwSubscription(id)
    await module.updateTwSubscriptions({
      id,
      status: "cancelled",
      cancel_reason: reason ?? (by === "customer" ? "Cancelled by the customer" : "Cancelled by the store"),
      cancelled_at: new Date(),
      next_charge_at: null,
    })
    const previous: Previous = { id, status: before.status, cancel_reason: before.cancel_reason, cancelled_at: before.cancelled_at, next_charge_at: before.next_charge_at }
    return new StepResponse(undefined, previous)
  },
  async (previous, { container }) => {
    if (previous) {
      await subscriptionModule(container).updateTwSubscriptions(previous)
    }
  }
)
