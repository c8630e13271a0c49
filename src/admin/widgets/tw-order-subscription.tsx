import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { SubscriptionsTable } from "../components/subscriptions-table"
import { useAdminGet } from "../lib/admin-fetch"
import type { Subscription } from "../lib/subscription-types"

/** Which period of a subscription this order pays: the first order is period 1, a renewal's metadata names its period. */
function periodOf(order: AdminOrder, subscription: Subscription) {
  if (subscription.first_order_id === order.id) {
    return "the first order"
  }
  const period = order.metadata?.tw_subscription_period
  return period ? `the renewal order of period ${String(period)}` : "a renewal order"
}

/** On an order that a subscription placed: the subscription, linking to its page. Nothing on other orders. */
const OrderSubscriptionWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { data, error } = useAdminGet<{ subscriptions: Subscription[] }>(`/admin/orders/${order.id}/tw-subscriptions`)
  if (error) {
    return (
      <Container>
        <Text className="text-ui-fg-error">Subscription: {error}</Text>
      </Container>
    )
  }
  const [subscription] = data?.subscriptions ?? []
  if (!subscription) {
    return null
  }
  return (
    <Container className="divide-y p-0" data-testid="tw-order-subscription">
      <div className="px-6 py-4">
        <Heading level="h2">Subscription</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          This order is {periodOf(order, subscription)} of the subscription below.
        </Text>
      </div>
      <SubscriptionsTable subscriptions={data!.subscriptions} empty="" />
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.after", id: "medusa-payment-tw:order-subscription" })

export default OrderSubscriptionWidget
