import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import { settlePeriod } from "../../../subscriptions/settle-period"

/** The first charge of a later first date failed for good (or the subscription ended): its awaiting order is cancelled. Final, like any cancel. */
export const cancelTwSubscriptionFirstOrderStep = createStep(
  "cancel-tw-subscription-first-order",
  async ({ subscriptionId, orderId }: { subscriptionId: string; orderId: string }, { container }) => {
    const failed = await settlePeriod(container, subscriptionId, 1, async () => {
      // .run(), not runAsStep: inside settlePeriod, whose failure is reported for the next run, not thrown; and the cancel stands (core releases the payment at the service)
      await cancelOrderWorkflow(container).run({ input: { order_id: orderId } })
      container.resolve(ContainerRegistrationKeys.LOGGER).info(`medusa-payment-tw: cancelled order ${orderId}: the first charge of subscription ${subscriptionId} failed or the subscription ended`)
    })
    return new StepResponse({ failed })
  }
)
