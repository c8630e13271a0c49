import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"

interface Named {
  periodId: string
  orderId: string | null
}

/**
 * The period names its renewal order before the payment, so a run that
 * stops half-way resumes with the payment. Readers see the order only once
 * `order_paid` is set. Undone by naming what the period named before.
 */
export const nameTwRenewalOrderStep = createStep(
  "name-tw-renewal-order",
  async ({ periodId, orderId }: { periodId: string; orderId: string }, { container }) => {
    const module = subscriptionModule(container)
    const row = await module.retrieveTwSubscriptionPeriod(periodId, { select: ["id", "order_id"] })
    if (row.order_id === orderId) {
      return new StepResponse<undefined, Named | null>(undefined, null)
    }
    await module.updateTwSubscriptionPeriods({ id: periodId, order_id: orderId })
    return new StepResponse<undefined, Named | null>(undefined, { periodId, orderId: row.order_id })
  },
  async (previous, { container }) => {
    if (previous) {
      await subscriptionModule(container).updateTwSubscriptionPeriods({ id: previous.periodId, order_id: previous.orderId })
    }
  }
)
