import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { SubscriptionsTable } from "../components/subscriptions-table"
import { useAdminGet } from "../lib/admin-fetch"
import type { Subscription } from "../lib/subscription-types"

/** The customer page's subscriptions, each linking to its page. Saved cards are a widget of their own. */
const CustomerSubscriptionsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const { data, error } = useAdminGet<{ subscriptions: Subscription[] }>(`/admin/customers/${customer.id}/tw-subscriptions`)
  return (
    <Container className="divide-y p-0" data-testid="tw-customer-subscriptions">
      <div className="px-6 py-4">
        <Heading level="h2">Subscriptions</Heading>
      </div>
      {error ? (
        <Text className="text-ui-fg-error px-6 py-4">{error}</Text>
      ) : !data ? (
        <Text className="px-6 py-4">Loading…</Text>
      ) : (
        <SubscriptionsTable subscriptions={data.subscriptions} empty="This customer has no subscriptions." />
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after", id: "medusa-payment-tw:customer-subscriptions" })

export default CustomerSubscriptionsWidget
