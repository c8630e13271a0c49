import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_SUBSCRIPTION_MODULE } from "../../../modules/tw-subscription"

interface SubscriptionOrder {
  subscriptionId: string
  orderId: string
}

const linkOf = ({ subscriptionId, orderId }: SubscriptionOrder) => ({ [TW_SUBSCRIPTION_MODULE]: { tw_subscription_id: subscriptionId }, [Modules.ORDER]: { order_id: orderId } })

async function linked(container: MedusaContainer, { subscriptionId, orderId }: SubscriptionOrder) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "tw_subscription", fields: ["id", "orders.id"], filters: { id: subscriptionId } })
  return ((data[0] as { orders?: Array<{ id: string } | null> } | undefined)?.orders ?? []).some((o) => o?.id === orderId)
}

/** Links an order (the first or a renewal) to its subscription, once; whether it made the link, which only then is undone. */
export const linkTwSubscriptionOrderStep = createStep(
  "link-tw-subscription-order",
  async (input: SubscriptionOrder, { container }) => {
    if (await linked(container, input)) {
      return new StepResponse<boolean, SubscriptionOrder | null>(false, null)
    }
    await container.resolve(ContainerRegistrationKeys.LINK).create(linkOf(input))
    return new StepResponse<boolean, SubscriptionOrder | null>(true, input)
  },
  async (made, { container }) => {
    if (made) {
      await container.resolve(ContainerRegistrationKeys.LINK).dismiss(linkOf(made))
    }
  }
)
