import { Container, Heading, StatusBadge, Table, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useTranslation } from "react-i18next"
import { Link, useParams } from "react-router-dom"
import { isCancellable } from "../../../../shared/statuses"
import type { AdminSubscriptionDetailView } from "../../../../shared/subscription-views"
import { CancelSubscriptionDrawer } from "../../../components/cancel-subscription-drawer"
import { SubscriptionStatusBadge } from "../../../components/subscription-status-badge"
import { useSubscription } from "../../../hooks/subscriptions"
import { customerName, formatAmount, formatDateTime, formatInterval, formatPeriods, PERIOD_COLORS } from "../../../lib/subscription-format"

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

/** The terms, the customer and the first order. */
function Terms({ s }: { s: AdminSubscriptionDetailView }) {
  const { t } = useTranslation()
  return (
    <Container className="divide-y p-0" data-testid="tw-subscription-detail">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">{t("twPayment.subscription.heading", { number: s.service_subscription_id ?? "" })}</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            {s.id}
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          <SubscriptionStatusBadge status={s.status} />
          {isCancellable(s.status) && <CancelSubscriptionDrawer subscriptionId={s.id} />}
        </div>
      </div>
      <Field label={t("twPayment.subscription.customer")}>
        {s.customer ? (
          <Link to={`/customers/${s.customer.id}`} className={linkClass}>
            {customerName(s.customer)} ({s.customer.email})
          </Link>
        ) : (
          s.customer_id
        )}
      </Field>
      <Field label={t("twPayment.subscription.plan")}>
        {s.plan ? `${s.plan.title}: ` : ""}
        {formatInterval(t, s)}
        {s.plan && !s.plan.active ? t("twPayment.subscription.planInactive") : ""}
      </Field>
      <Field label={t("twPayment.subscription.amount")}>{formatAmount(s.amount, s.currency_code)}</Field>
      <Field label={t("twPayment.subscription.periodsCharged")}>{formatPeriods(t, s)}</Field>
      <Field label={t("twPayment.subscription.nextCharge")}>{formatDateTime(s.next_charge_at)}</Field>
      <Field label={t("twPayment.subscription.startDate")}>{s.start_date ?? "-"}</Field>
      <Field label={t("twPayment.subscription.card")}>{s.card_last4 ? `•••• ${s.card_last4}` : "-"}</Field>
      <Field label={t("twPayment.subscription.firstOrder")}>
        {s.first_order_id ? (
          <Link to={`/orders/${s.first_order_id}`} className={linkClass}>
            {s.first_order_id}
          </Link>
        ) : (
          t("twPayment.subscription.firstOrderNone")
        )}
      </Field>
      {s.status === "cancelled" && (
        <Field label={t("twPayment.subscription.cancelled")}>
          {formatDateTime(s.cancelled_at)}
          {s.cancel_reason ? `: ${s.cancel_reason}` : ""}
        </Field>
      )}
    </Container>
  )
}

/** Every period the service charged, with its order. */
function Periods({ s }: { s: AdminSubscriptionDetailView }) {
  const { t } = useTranslation()
  const column = (key: string) => t(`twPayment.subscription.periodColumns.${key}`)
  return (
    <Container className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">{t("twPayment.subscription.periods")}</Heading>
      </div>
      {s.periods.length ? (
        <Table data-testid="tw-subscription-periods">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{column("period")}</Table.HeaderCell>
              <Table.HeaderCell>{column("status")}</Table.HeaderCell>
              <Table.HeaderCell>{column("transaction")}</Table.HeaderCell>
              <Table.HeaderCell className="text-right">{column("amount")}</Table.HeaderCell>
              <Table.HeaderCell>{column("attempts")}</Table.HeaderCell>
              <Table.HeaderCell>{column("paidAt")}</Table.HeaderCell>
              <Table.HeaderCell>{column("order")}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {s.periods.map((p) => (
              <Table.Row key={p.period} data-testid="tw-subscription-period">
                <Table.Cell>{p.period}</Table.Cell>
                <Table.Cell>
                  <StatusBadge color={PERIOD_COLORS[p.status]}>{t(`twPayment.periodStatus.${p.status}`)}</StatusBadge>
                </Table.Cell>
                <Table.Cell>{p.transaction_hid ?? "-"}</Table.Cell>
                <Table.Cell className="text-right">{formatAmount(p.amount, s.currency_code)}</Table.Cell>
                <Table.Cell>{p.attempts}</Table.Cell>
                <Table.Cell>{formatDateTime(p.paid_at)}</Table.Cell>
                <Table.Cell>
                  {p.order_id ? (
                    <Link to={`/orders/${p.order_id}`} className={linkClass}>
                      {t(p.period === 1 ? "twPayment.subscription.firstOrderLink" : "twPayment.subscription.renewalOrderLink")}
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
          {t("twPayment.subscription.periodsEmpty")}
        </Text>
      )}
    </Container>
  )
}

/** One subscription: its terms, customer, every period the service charged (with its order), and Cancel. */
const SubscriptionPage = () => {
  const { t } = useTranslation()
  const { id } = useParams()
  const { data, error } = useSubscription(id!)
  if (!data) {
    return (
      <Container>
        <Text className={error ? "text-ui-fg-error" : undefined}>{error?.message ?? t("twPayment.common.loading")}</Text>
      </Container>
    )
  }
  return (
    <div className="flex flex-col gap-y-3">
      <Terms s={data.subscription} />
      <Periods s={data.subscription} />
    </div>
  )
}

/** The dashboard renders the breadcrumb as an element, so it can be translated. */
const Breadcrumb = () => {
  const { t } = useTranslation()
  return <>{t("twPayment.subscription.breadcrumb")}</>
}

export const handle = { breadcrumb: () => <Breadcrumb /> }

export default SubscriptionPage
