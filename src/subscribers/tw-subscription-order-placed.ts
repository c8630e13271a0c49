import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { processTwSubscriptionWorkflow } from "../workflows/subscriptions/process-tw-subscription"

/**
 * A subscription's first order was placed (by the shopper's completion or
 * the pipeline's): the subscription is read again, so it is linked to the
 * order and any period paid meanwhile gets its renewal order.
 */
export default async function twSubscriptionOrderPlacedHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["cart_id"], filters: { order_id: event.data.id } })
  const cartId: string | undefined = links[0]?.cart_id
  if (!cartId) {
    return // renewal orders have no cart
  }
  const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const [row] = await module.listTwSubscriptions({ cart_id: cartId }, { take: 1, order: { created_at: "DESC" } })
  if (!row || row.first_order_id) {
    return
  }
  try {
    await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: row.id } })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: subscription ${row.id} not linked to order ${event.data.id} yet: ${untrusted((error as Error).message, 300)}`)
  }
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "medusa-payment-tw-subscription-order-placed" },
}
