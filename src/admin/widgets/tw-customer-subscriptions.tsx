import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { SubscriptionsTable } from "../components/subscriptions-table"
import { useCustomerSubscriptions } from "../hooks/subscriptions"

/** The customer page's subscriptions, each linking to its page. Saved cards are a widget of their own. */
const CustomerSubscriptionsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const { t } = useTranslation()
  const { data, error, isLoading } = useCustomerSubscriptions(customer.id)
  return (
    <Container className="divide-y p-0" data-testid="tw-customer-subscriptions">
      <div className="px-6 py-4">
        <Heading level="h2">{t("twPayment.subscriptions.title")}</Heading>
      </div>
      {error ? (
        <Text className="text-ui-fg-error px-6 py-4">{error.message}</Text>
      ) : (
        <SubscriptionsTable subscriptions={data?.subscriptions ?? []} isLoading={isLoading} empty={t("twPayment.subscriptions.customerEmpty")} />
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after", id: "medusa-payment-tw:customer-subscriptions" })

export default CustomerSubscriptionsWidget
