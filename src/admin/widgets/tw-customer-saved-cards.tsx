import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Trash } from "@medusajs/icons"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Alert, Container, Heading, IconButton, StatusBadge, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useState } from "react"
import { adminFetch, useAdminGet } from "../lib/admin-fetch"
import type { SavedCard, SavedCardStatus } from "../lib/saved-card-types"
import { formatDateTime } from "../lib/subscription-format"

const STATUS: Record<SavedCardStatus, { label: string; color: "orange" | "green" | "red" }> = {
  binding: { label: "Being saved", color: "orange" },
  active: { label: "Active", color: "green" },
  failed: { label: "Failed", color: "red" },
}

/** "•••• 4242" (with the label once the service reports one); a card still binding has no digits yet. */
const cardName = (card: SavedCard) => (card.last4 ? `•••• ${card.last4}${card.card_label ? ` (${card.card_label})` : ""}` : "Card not reported yet")

/** The customer page's saved cards (the route's public view only) with Delete. Subscriptions are a widget of their own. */
const CustomerSavedCardsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const { data, error, reload } = useAdminGet<{ saved_cards: SavedCard[] }>(`/admin/customers/${customer.id}/tw-saved-cards`)
  const [deleteError, setDeleteError] = useState<string>()
  const prompt = usePrompt()

  const remove = async (card: SavedCard) => {
    const confirmed = await prompt({
      title: `Delete ${cardName(card)}?`,
      description: "Its token is wiped from the store: the customer can no longer pay with it. They can save the card again from their account page.",
      confirmText: "Delete",
      cancelText: "Keep",
    })
    if (!confirmed) {
      return
    }
    setDeleteError(undefined)
    try {
      await adminFetch(`/admin/tw-saved-cards/${card.id}`, { method: "DELETE" })
      toast.success("Saved card deleted")
    } catch (e) {
      setDeleteError(`${cardName(card)} was not deleted: ${(e as Error).message}`)
    } finally {
      reload()
    }
  }

  return (
    <Container className="divide-y p-0" data-testid="tw-customer-saved-cards">
      <div className="px-6 py-4">
        <Heading level="h2">Saved cards</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Cards the customer saved to pay in one step, newest first.
        </Text>
      </div>
      {deleteError && (
        <div className="px-6 py-4">
          <Alert variant="error" dismissible data-testid="tw-saved-card-error">
            {deleteError}
          </Alert>
        </div>
      )}
      {error ? (
        <Text className="text-ui-fg-error px-6 py-4">{error}</Text>
      ) : !data ? (
        <Text className="px-6 py-4">Loading…</Text>
      ) : !data.saved_cards.length ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4" data-testid="tw-saved-cards-empty">
          This customer has no saved cards.
        </Text>
      ) : (
        <Table data-testid="tw-saved-cards-table">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Card</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>Added on (Taipei)</Table.HeaderCell>
              <Table.HeaderCell>Bound at (Taipei)</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.saved_cards.map((card) => (
              <Table.Row key={card.id} data-testid="tw-saved-card-row">
                <Table.Cell>{cardName(card)}</Table.Cell>
                <Table.Cell>
                  <div className="flex flex-col items-start gap-y-1 py-2">
                    <StatusBadge color={STATUS[card.status]?.color ?? "grey"}>{STATUS[card.status]?.label ?? card.status}</StatusBadge>
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
                    <IconButton size="small" variant="transparent" aria-label={`Delete ${cardName(card)}`} onClick={() => void remove(card)}>
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
