import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ChartActivity } from "@medusajs/icons"
import { Badge, Container, Heading, Table, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { useTranslation } from "react-i18next"
import { Link, useSearchParams } from "react-router-dom"
import {
  DELIVERY_KINDS,
  DELIVERY_VERDICTS,
  HEALTH_WINDOWS,
  type HealthFigures,
  type HealthWindow,
  healthRuleText,
  PAYMENT_OUTCOMES,
  PLACEMENT_PATHS,
  VERDICTS_OF,
} from "../../../shared/health-views"
import { PageHeader } from "../../components/page-header"
import { usePaymentsHealth } from "../../hooks/payments-health"
import { formatAmount, formatDateTime } from "../../lib/subscription-format"

/** The list behind a figure, where the admin has one. */
const PAYMENT_LINKS: Partial<Record<(typeof PAYMENT_OUTCOMES)[number], string>> = { captured: "/orders", awaiting: "/orders" }

/** A titled block of figures. */
function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <div className="px-6 py-4" data-testid={testId}>
      <Heading level="h2" className="mb-2">
        {title}
      </Heading>
      {children}
    </div>
  )
}

/** One figure, linked to its list when there is one. */
function Figure({ label, value, to, testId }: { label: string; value: ReactNode; to?: string; testId: string }) {
  return (
    <div className="flex flex-col" data-testid={testId}>
      <Text size="small" className="text-ui-fg-subtle">
        {label}
      </Text>
      {to ? (
        <Link to={to} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover txt-large-plus">
          {value}
        </Link>
      ) : (
        <Text className="txt-large-plus">{value}</Text>
      )}
    </div>
  )
}

const seconds = (value: number | null) => (value === null ? "-" : `${value} s`)

/**
 * Sidebar "Payments health": for the last hour, day or week, payments by outcome, how each order was placed
 * (and how long after its payment), deliveries by verdict, money waiting, subscriptions and saved-card charges;
 * above them the warnings on now, each with what to do.
 */
const PaymentsHealthPage = () => {
  const { t, i18n } = useTranslation()
  const [params, setParams] = useSearchParams()
  const window = (HEALTH_WINDOWS as readonly string[]).includes(params.get("window") ?? "") ? (params.get("window") as HealthWindow) : "day"
  const health = usePaymentsHealth(window)
  const language = i18n.language?.startsWith("zh") ? "zhTW" : "en"
  const figures: HealthFigures | undefined = health.data?.figures
  const warnings = health.data?.warnings ?? []

  return (
    <Container className="divide-y p-0" data-testid="tw-payments-health">
      <PageHeader
        title={t("twPayment.health.title")}
        description={t("twPayment.health.description")}
        choices={HEALTH_WINDOWS.map((value) => ({ value, label: t(`twPayment.health.window.${value}`) }))}
        chosen={window}
        onChoose={(value) => setParams(new URLSearchParams({ window: value }))}
      />
      {health.error ? <Text className="text-ui-fg-error px-6 py-4">{health.error.message}</Text> : null}
      <Section title={t("twPayment.health.warnings.title")} testId="tw-health-warnings">
        {warnings.length ? (
          <ul className="flex flex-col gap-y-2">
            {warnings.map((warning) => (
              <li key={warning.rule} data-testid={`tw-health-warning-${warning.rule}`}>
                <Badge color="red" size="small">
                  {t(`twPayment.health.rules.${warning.rule}`)}
                </Badge>{" "}
                <Text size="small" as="span">
                  {healthRuleText(warning, language)}
                </Text>{" "}
                <Text size="xsmall" as="span" className="text-ui-fg-muted">
                  {t("twPayment.health.warnings.since", { time: formatDateTime(warning.startedAt) })}
                </Text>
              </li>
            ))}
          </ul>
        ) : (
          <Text size="small" className="text-ui-fg-subtle">
            {health.isLoading ? t("twPayment.common.loading") : t("twPayment.health.warnings.none")}
          </Text>
        )}
      </Section>
      {figures ? (
        <>
          <Section title={t("twPayment.health.payments.title")} testId="tw-health-payments">
            <div className="grid grid-cols-4 gap-4">
              {PAYMENT_OUTCOMES.map((outcome) => (
                <Figure key={outcome} label={t(`twPayment.health.payments.${outcome}`)} value={figures.payments[outcome]} to={PAYMENT_LINKS[outcome]} testId={`tw-health-payments-${outcome}`} />
              ))}
            </div>
          </Section>
          <Section title={t("twPayment.health.placements.title")} testId="tw-health-placements">
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>{t("twPayment.health.placements.path")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("twPayment.health.placements.orders")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("twPayment.health.placements.share")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("twPayment.health.placements.p50")}</Table.HeaderCell>
                  <Table.HeaderCell>{t("twPayment.health.placements.p95")}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {PLACEMENT_PATHS.map((path) => (
                  <Table.Row key={path} data-testid={`tw-health-placement-${path}`}>
                    <Table.Cell>{t(`twPayment.health.placements.paths.${path}`)}</Table.Cell>
                    <Table.Cell>{figures.placements[path].count}</Table.Cell>
                    <Table.Cell>{Math.round(figures.placements[path].share * 100)}%</Table.Cell>
                    <Table.Cell>{seconds(figures.placements[path].p50)}</Table.Cell>
                    <Table.Cell>{seconds(figures.placements[path].p95)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </Section>
          <Section title={t("twPayment.health.deliveries.title")} testId="tw-health-deliveries">
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell />
                  {DELIVERY_VERDICTS.map((verdict) => (
                    <Table.HeaderCell key={verdict}>{t(`twPayment.health.deliveries.verdicts.${verdict}`)}</Table.HeaderCell>
                  ))}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {DELIVERY_KINDS.map((kind) => (
                  <Table.Row key={kind} data-testid={`tw-health-deliveries-${kind}`}>
                    <Table.Cell>{t(`twPayment.health.deliveries.kinds.${kind}`)}</Table.Cell>
                    {DELIVERY_VERDICTS.map((verdict) => (
                      <Table.Cell key={verdict}>{VERDICTS_OF[kind].includes(verdict) ? figures.deliveries[kind][verdict] : "-"}</Table.Cell>
                    ))}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </Section>
          <Section title={t("twPayment.health.money.title")} testId="tw-health-money">
            <div className="grid grid-cols-4 gap-4">
              <Figure
                label={t("twPayment.health.money.refundsAwaiting")}
                value={`${figures.money.refundsAwaiting.count} · ${formatAmount(figures.money.refundsAwaiting.amount)}`}
                testId="tw-health-refunds-awaiting"
              />
              <Figure
                label={t("twPayment.health.money.remittancesDue")}
                value={`${figures.money.remittancesDue.count} · ${formatAmount(figures.money.remittancesDue.amount)}`}
                to="/tw-remittances"
                testId="tw-health-remittances-due"
              />
            </div>
          </Section>
          <Section title={t("twPayment.health.subscriptions.title")} testId="tw-health-subscriptions">
            <div className="grid grid-cols-4 gap-4">
              <Figure label={t("twPayment.health.subscriptions.retrying")} value={figures.subscriptions.retrying} to="/tw-subscriptions?status=retrying" testId="tw-health-subscriptions-retrying" />
              <Figure label={t("twPayment.health.subscriptions.exhausted")} value={figures.subscriptions.exhausted} to="/tw-subscriptions?status=stopped" testId="tw-health-subscriptions-exhausted" />
              <Figure label={t("twPayment.health.subscriptions.renewalsUnplaced")} value={figures.subscriptions.renewalsUnplaced} to="/tw-subscriptions" testId="tw-health-renewals-unplaced" />
              <Figure label={t("twPayment.health.savedCards.openCharges")} value={figures.savedCards.openCharges} testId="tw-health-open-charges" />
            </div>
          </Section>
        </>
      ) : null}
    </Container>
  )
}

export const config = defineRouteConfig({ label: "twPayment.health.menu", translationNs: "translation", icon: ChartActivity })

export default PaymentsHealthPage
