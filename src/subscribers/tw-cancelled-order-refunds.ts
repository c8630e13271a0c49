import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { refundTwCancelledOrderWorkflow } from "../workflows/refunds/refund-tw-cancelled-order"

/** An order was cancelled: whatever of this plugin's money core's cancel could not return is refunded now or by the job. */
export default async function twCancelledOrderRefundsHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  try {
    await refundTwCancelledOrderWorkflow(container).run({ input: event.data.id })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).error(`medusa-payment-tw: order ${event.data.id} was cancelled but its payment is not refunded yet: ${untrusted((error as Error).message, 600)}`)
  }
}

export const config: SubscriberConfig = {
  event: "order.canceled",
  context: { subscriberId: "medusa-payment-tw-cancelled-order-refunds" },
}
