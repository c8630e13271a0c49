import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { isPipelinePlacing } from "../health/pipeline-placements"
import { untrusted } from "../lib/log"
import { recordTwOrderPlacementWorkflow } from "../workflows/health/record-tw-order-placement"

/**
 * An order was placed from a cart: kept as placed by the shopper's return unless the payment pipeline
 * placed it (its own step records that: `pipeline-placements.ts`). Renewal orders have no cart and are left out.
 */
export default async function twOrderPlacementHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["cart_id"], filters: { order_id: event.data.id } })
  if (!links.length || isPipelinePlacing(links[0].cart_id)) {
    return
  }
  try {
    await recordTwOrderPlacementWorkflow(container).run({ input: { orderId: event.data.id } })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: how order ${event.data.id} was placed is not recorded: ${untrusted((error as Error).message, 300)}`)
  }
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "medusa-payment-tw-order-placement" },
}
