import { createDataTableColumnHelper } from "@medusajs/ui"
import { useMemo } from "react"
import { useTranslation } from "react-i18next"
import { Link } from "react-router-dom"
import type { SubscriptionListItem } from "../../shared/subscription-views"
import { formatAmount, formatDateTime, formatInterval, formatPeriods } from "../lib/subscription-format"
import { SubscriptionStatusBadge } from "./subscription-status-badge"

const column = createDataTableColumnHelper<SubscriptionListItem>()

/**
 * The columns of every subscription list (the Subscriptions page, the customer and order widgets). With
 * `customerLabel`, a Customer column: what to show for each customer id (name or email).
 */
export function useSubscriptionColumns(customerLabel?: (customerId: string) => string) {
  const { t } = useTranslation()
  return useMemo(
    () => [
      column.accessor("service_subscription_id", {
        header: t("twPayment.subscriptions.columns.subscription"),
        // The S number once the service gave one; the link keeps the row reachable without a mouse.
        cell: ({ row }) => (
          <Link to={`/tw-subscriptions/${row.original.id}`} className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover" data-testid="tw-subscription-link">
            {row.original.service_subscription_id ?? row.original.id}
          </Link>
        ),
      }),
      ...(customerLabel ? [column.accessor("customer_id", { header: t("twPayment.subscriptions.columns.customer"), cell: ({ getValue }) => customerLabel(getValue()) })] : []),
      column.accessor("plan_title", {
        header: t("twPayment.subscriptions.columns.plan"),
        cell: ({ row }) => `${row.original.plan_title ? `${row.original.plan_title}: ` : ""}${formatInterval(t, row.original)}`,
      }),
      column.accessor("amount", {
        header: t("twPayment.subscriptions.columns.amount"),
        align: "right",
        headerAlign: "right",
        cell: ({ row }) => formatAmount(row.original.amount, row.original.currency_code),
      }),
      column.accessor("status", { header: t("twPayment.subscriptions.columns.status"), cell: ({ getValue }) => <SubscriptionStatusBadge status={getValue()} /> }),
      column.accessor("periods_charged", { header: t("twPayment.subscriptions.columns.periodsCharged"), cell: ({ row }) => formatPeriods(t, row.original) }),
      column.accessor("next_charge_at", { header: t("twPayment.subscriptions.columns.nextCharge"), cell: ({ getValue }) => formatDateTime(getValue()) }),
    ],
    [t, customerLabel]
  )
}
