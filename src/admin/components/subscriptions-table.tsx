import { Table, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { formatAmount, formatDateTime, formatInterval, formatPeriods } from "../lib/subscription-format"
import type { Subscription } from "../lib/subscription-types"
import { SubscriptionStatusBadge } from "./subscription-status-badge"

interface Props {
  subscriptions: Subscription[]
  /** When given, a Customer column: what to show for each customer id (name or email). */
  customerLabel?: (customerId: string) => string
  empty: string
}

/** Subscriptions as rows, each linking to its detail page; the list page and the customer and order widgets share it. */
export function SubscriptionsTable({ subscriptions, customerLabel, empty }: Props) {
  if (!subscriptions.length) {
    return (
      <Text size="small" className="text-ui-fg-subtle px-6 py-4" data-testid="tw-subscriptions-empty">
        {empty}
      </Text>
    )
  }
  return (
    <Table data-testid="tw-subscriptions-table">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>Subscription</Table.HeaderCell>
          {customerLabel && <Table.HeaderCell>Customer</Table.HeaderCell>}
          <Table.HeaderCell>Plan</Table.HeaderCell>
          <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
          <Table.HeaderCell>Status</Table.HeaderCell>
          <Table.HeaderCell>Periods charged</Table.HeaderCell>
          <Table.HeaderCell>Next charge (Taipei)</Table.HeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {subscriptions.map((s) => (
          <Table.Row key={s.id} data-testid="tw-subscription-row">
            <Table.Cell>
              <Link to={`/tw-subscriptions/${s.id}`} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
                {s.service_subscription_id ?? s.id}
              </Link>
            </Table.Cell>
            {customerLabel && <Table.Cell>{customerLabel(s.customer_id)}</Table.Cell>}
            <Table.Cell>
              {s.plan_title ? `${s.plan_title}: ` : ""}
              {formatInterval(s)}
            </Table.Cell>
            <Table.Cell className="text-right">{formatAmount(s.amount, s.currency_code)}</Table.Cell>
            <Table.Cell>
              <SubscriptionStatusBadge status={s.status} />
            </Table.Cell>
            <Table.Cell>{formatPeriods(s)}</Table.Cell>
            <Table.Cell>{formatDateTime(s.next_charge_at)}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  )
}
