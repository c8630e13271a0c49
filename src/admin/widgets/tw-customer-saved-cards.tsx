import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Trash } from "@medusajs/icons"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Alert, Container, Heading, IconButton, StatusBadge, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import type { AdminSavedCardView } from "../../shared/saved-card-views"
import type { ListedSavedCardStatus } from "../../shared/statuses"
import { useCustomerSavedCards, useDeleteSavedCard } from "../hooks/saved-cards"
import { formatDateTime } from "../lib/subscription-format"

const COLORS: Record<ListedSavedCardStatus, "orange" | "green" | "red"> = { binding: "orange", active: "green", failed: "red" }

/** The customer page's saved cards (the route's public view only) with Delete. Subscriptions are a widget of their own. */
const CustomerSavedCardsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const { t } = useTranslation()
  const { data, error } = useCustomerSavedCards(customer.id)
  const remove = useDeleteSavedCard(customer.id)
  const prompt = usePrompt()

  /** "•••• 4242" (with the label once the service reports one); a card still binding has no digits yet. */
  const cardName = (card: AdminSavedCardView) =>
    card.last4 ? `•••• ${card.last4}${card.card_label ? ` (${card.card_label})` : ""}` : t("twPayment.savedCards.notReported")

  const confirmRemove = async (card: AdminSavedCardView) => {
    const confirmed = await prompt({
      title: t("twPayment.savedCards.deleteTitle", { card: cardName(card) }),
      description: t("twPayment.savedCards.deleteDescription"),
      confirmText: t("twPayment.common.delete"),
      cancelText: t("twPayment.common.keep"),
    })
    if (confirmed) {
      remove.mutate(card.id, { onSuccess: () => toast.success(t("twPayment.savedCards.deleted")) })
    }
  }
  const failed = remove.error && data?.saved_cards.find((card) => card.id === remove.variables)

  return (
    <Container className="divide-y p-0" data-testid="tw-customer-saved-cards">
      <div className="px-6 py-4">
        <Heading level="h2">{t("twPayment.savedCards.title")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t("twPayment.savedCards.description")}
        </Text>
      </div>
      {remove.error && (
        <div className="px-6 py-4">
          <Alert variant="error" dismissible data-testid="tw-saved-card-error">
            {t("twPayment.savedCards.notDeleted", { card: failed ? cardName(failed) : remove.variables, message: remove.error.message })}
          </Alert>
        </div>
      )}
      {error ? (
        <Text className="text-ui-fg-error px-6 py-4">{error.message}</Text>
      ) : !data ? (
        <Text className="px-6 py-4">{t("twPayment.common.loading")}</Text>
      ) : !data.saved_cards.length ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4" data-testid="tw-saved-cards-empty">
          {t("twPayment.savedCards.empty")}
        </Text>
      ) : (
        <Table data-testid="tw-saved-cards-table">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("twPayment.savedCards.columns.card")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.savedCards.columns.status")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.savedCards.columns.added")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.savedCards.columns.bound")}</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.saved_cards.map((card) => (
              <Table.Row key={card.id} data-testid="tw-saved-card-row">
                <Table.Cell>{cardName(card)}</Table.Cell>
                <Table.Cell>
                  <div className="flex flex-col items-start gap-y-1 py-2">
                    <StatusBadge color={COLORS[card.status] ?? "grey"}>{t(`twPayment.savedCards.status.${card.status}`, { defaultValue: card.status })}</StatusBadge>
                    {card.status === "failed" && card.failure_reason && (
                      <Text size="xsmall" className="text-ui-fg-subtle whitespace-normal" data-testid="tw-saved-card-failure">
                        {card.failure_reason}
                      </Text>
                    )}
                  </div>
                </Table.Cell>
                <Table.Cell>{formatDateTime(card.created_at)}</Table.Cell>
                <Table.Cell>{formatDateTime(card.bound_at)}</Table.Cell>
                <Table.Cell>
                  <div className="flex justify-end">
                    <IconButton
                      size="small"
                      variant="transparent"
                      aria-label={t("twPayment.savedCards.remove", { card: cardName(card) })}
                      onClick={() => void confirmRemove(card)}
                    >
                      <Trash />
                    </IconButton>
                  </div>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after", id: "medusa-payment-tw:customer-saved-cards" })

export default CustomerSavedCardsWidget
