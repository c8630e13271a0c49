import { Container, Heading, StatusBadge, Table, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { Link, useParams } from "react-router-dom"
import { CancelSubscriptionDrawer } from "../../../components/cancel-subscription-drawer"
import { SubscriptionStatusBadge } from "../../../components/subscription-status-badge"
import { useAdminGet } from "../../../lib/admin-fetch"
import { customerName, formatAmount, formatDateTime, formatInterval, formatPeriods, PERIOD_COLORS } from "../../../lib/subscription-format"
import { CANCELLABLE, type SubscriptionDetail } from "../../../lib/subscription-types"

const linkClass = "text-ui-fg-interactive hover:text-ui-fg-interactive-hover"

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="text-ui-fg-subtle grid grid-cols-2 items-center px-6 py-4">
    <Text size="small" weight="plus" leading="compact">
      {label}
    </Text>
    <Text size="small" leading="compact" as="div">
      {children}
    </Text>
  </div>
)

/** One subscription: its terms, customer, every period the service charged (with its order), and Cancel. */
const SubscriptionPage = () => {
  const { id } = useParams()
  const { data, error, reload } = useAdminGet<{ subscription: SubscriptionDetail }>(`/admin/tw-subscriptions/${id}`)
  if (!data) {
    return (
      <Container>
        <Text className={error ? "text-ui-fg-error" : undefined}>{error ?? "Loading…"}</Text>
      </Container>
    )
  }
  const s = data.subscription
  const amount = (value: number) => formatAmount(value, s.currency_code)
  return (
    <div className="flex flex-col gap-y-3">
      <Container className="divide-y p-0">
        <div className="flex items-center justify-between px-6 py-4">
          <div>
            <Heading level="h1">Subscription {s.service_subscription_id ?? ""}</Heading>
            <Text size="small" className="text-ui-fg-subtle">
              {s.id}
            </Text>
          </div>
          <div className="flex items-center gap-x-2">
            <SubscriptionStatusBadge status={s.status} />
            {CANCELLABLE.includes(s.status) && <CancelSubscriptionDrawer subscriptionId={s.id} onCancelled={reload} />}
          </div>
        </div>
        <Field label="Customer">
          {s.customer ? (
            <Link to={`/customers/${s.customer.id}`} className={linkClass}>
              {customerName(s.customer)} ({s.customer.email})
            </Link>
          ) : (
            s.customer_id
          )}
        </Field>
        <Field label="Plan">
          {s.plan ? `${s.plan.title}: ` : ""}
          {formatInterval(s)}
          {s.plan && !s.plan.active ? " (no longer offered)" : ""}
        </Field>
        <Field label="Amount each period">{amount(s.amount)}</Field>
        <Field label="Periods charged">{formatPeriods(s)}</Field>
        <Field label="Next charge (Taipei)">{formatDateTime(s.next_charge_at)}</Field>
        <Field label="First charge date">{s.start_date ?? "-"}</Field>
        <Field label="Card">{s.card_last4 ? `•••• ${s.card_last4}` : "-"}</Field>
        <Field label="First order">
          {s.first_order_id ? (
            <Link to={`/orders/${s.first_order_id}`} className={linkClass}>
              {s.first_order_id}
            </Link>
          ) : (
            "not placed yet"
          )}
        </Field>
        {s.status === "cancelled" && (
          <Field label="Cancelled">
            {formatDateTime(s.cancelled_at)}
            {s.cancel_reason ? `: ${s.cancel_reason}` : ""}
          </Field>
        )}
      </Container>
      <Container className="divide-y p-0">
        <div className="px-6 py-4">
          <Heading level="h2">Periods</Heading>
        </div>
        {s.periods.length ? (
          <Table data-testid="tw-subscription-periods">
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Period</Table.HeaderCell>
                <Table.HeaderCell>Status</Table.HeaderCell>
                <Table.HeaderCell>Transaction</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Amount</Table.HeaderCell>
                <Table.HeaderCell>Attempts</Table.HeaderCell>
                <Table.HeaderCell>Paid at (Taipei)</Table.HeaderCell>
                <Table.HeaderCell>Order</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {s.periods.map((p) => (
                <Table.Row key={p.period}>
                  <Table.Cell>{p.period}</Table.Cell>
                  <Table.Cell>
                    <StatusBadge color={PERIOD_COLORS[p.status]}>{p.status}</StatusBadge>
                  </Table.Cell>
                  <Table.Cell>{p.transaction_hid ?? "-"}</Table.Cell>
                  <Table.Cell className="text-right">{amount(p.amount)}</Table.Cell>
                  <Table.Cell>{p.attempts}</Table.Cell>
                  <Table.Cell>{formatDateTime(p.paid_at)}</Table.Cell>
                  <Table.Cell>
                    {p.order_id ? (
                      <Link to={`/orders/${p.order_id}`} className={linkClass}>
                        {p.period === 1 ? "First order" : "Renewal order"}
                      </Link>
                    ) : (
                      "-"
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        ) : (
          <Text size="small" className="text-ui-fg-subtle px-6 py-4">
            Nothing charged yet.
          </Text>
        )}
      </Container>
    </div>
  )
}

export const handle = { breadcrumb: () => "Subscription" }

export default SubscriptionPage
