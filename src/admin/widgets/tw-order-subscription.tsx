import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { SubscriptionListItem } from "../../shared/subscription-views"
import { SubscriptionsTable } from "../components/subscriptions-table"
import { useOrderSubscriptions } from "../hooks/subscriptions"

/** Which period of a subscription this order pays: the first order is period 1, a renewal's metadata names its period. */
function periodKey(order: AdminOrder, subscription: SubscriptionListItem) {
  if (subscription.first_order_id === order.id) {
    return { key: "twPayment.orderSubscription.first" }
  }
  const period = order.metadata?.tw_subscription_period
  return period ? { key: "twPayment.orderSubscription.renewalOf", period: String(period) } : { key: "twPayment.orderSubscription.renewal" }
}

/** On an order that a subscription placed: the subscription, linking to its page. Nothing on other orders. */
const OrderSubscriptionWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t } = useTranslation()
  const { data, error } = useOrderSubscriptions(order.id)
  if (error) {
    return (
      <Container>
        <Text className="text-ui-fg-error">
          {t("twPayment.orderSubscription.title")}: {error.message}
        </Text>
      </Container>
    )
  }
  const subscriptions = data?.subscriptions ?? []
  if (!subscriptions.length) {
    return null
  }
  const { key, period } = periodKey(order, subscriptions[0])
  return (
    <Container className="divide-y p-0" data-testid="tw-order-subscription">
      <div className="px-6 py-4">
        <Heading level="h2">{t("twPayment.orderSubscription.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t(key, { period })}
        </Text>
      </div>
      <SubscriptionsTable subscriptions={subscriptions} empty="" />
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.after", id: "medusa-payment-tw:order-subscription" })

export default OrderSubscriptionWidget
