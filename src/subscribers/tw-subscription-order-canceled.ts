import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { processTwSubscriptionWorkflow } from "../workflows/subscriptions/process-tw-subscription"

/**
 * A subscription's first order was cancelled: the subscription is read again
 * at once, so the store ends it and cancels it at the service before another
 * period is charged (a charge that slips through is refunded by that sync).
 */
export default async function twSubscriptionOrderCanceledHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  if (!container.hasRegistration(TW_SUBSCRIPTION_MODULE)) {
    return
  }
  const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const [row] = await module.listTwSubscriptions({ first_order_id: event.data.id }, { take: 1, select: ["id"] })
  if (!row) {
    return
  }
  try {
    await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: row.id } })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: subscription ${row.id} not ended yet after its order ${event.data.id} was cancelled: ${untrusted((error as Error).message, 300)}`)
  }
}

export const config: SubscriberConfig = {
  event: "order.canceled",
  context: { subscriberId: "medusa-payment-tw-subscription-order-canceled" },
}
