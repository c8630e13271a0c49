import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"

/** The row learns its session (the cancel drops it; a paid page finds the row by it). Undone: the previous session id back. */
export const attachSessionStep = createStep(
  "attach-tw-subscription-session",
  async ({ id, payment_session_id }: { id: string; payment_session_id: string }, { container }) => {
    const module = subscriptionModule(container)
    const before = await module.retrieveTwSubscription(id, { select: ["id", "payment_session_id"] })
    const updated = await module.updateTwSubscriptions({ id, payment_session_id })
    return new StepResponse(updated, { id, payment_session_id: before.payment_session_id })
  },
  async (previous, { container }) => {
    if (previous) {
      await subscriptionModule(container).updateTwSubscriptions(previous)
    }
  }
)
