import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCardRefresh } from "@medusajs/icons"
import {
  Container,
  createDataTableFilterHelper,
  DataTable,
  type DataTableFilteringState,
  type DataTablePaginationState,
  Heading,
  Text,
  useDataTable,
} from "@medusajs/ui"
import { useCallback, useMemo } from "react"
import { useTranslation } from "react-i18next"
import { useNavigate, useSearchParams } from "react-router-dom"
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../../../shared/statuses"
import type { SubscriptionListItem } from "../../../shared/subscription-views"
import { useSubscriptionColumns } from "../../components/subscription-columns"
import { useCustomersById } from "../../hooks/customers"
import { useSubscriptionList } from "../../hooks/subscriptions"
import { customerName } from "../../lib/subscription-format"

const PAGE_SIZE = 20
const filter = createDataTableFilterHelper<SubscriptionListItem>()

const isStatus = (value: unknown): value is SubscriptionStatus => (SUBSCRIPTION_STATUSES as readonly unknown[]).includes(value)

/** Sidebar "Subscriptions": every subscription, newest first, filtered by status; filter and page live in the URL. */
const SubscriptionsPage = () => {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const status = params.get("status")
  const offset = Math.max(0, Number(params.get("offset")) || 0)
  const list = useSubscriptionList({ limit: PAGE_SIZE, offset, status: isStatus(status) ? status : undefined })
  const subscriptions = list.data?.subscriptions ?? []
  const customers = useCustomersById(subscriptions.map((s) => s.customer_id))

  const customerLabel = useCallback(
    (id: string) => {
      const customer = customers.data?.get(id)
      return customer ? customerName(customer) : id
    },
    [customers.data]
  )
  const filters = useMemo(
    () => [
      filter.accessor("status", {
        type: "radio",
        label: t("twPayment.subscriptions.filterStatus"),
        options: SUBSCRIPTION_STATUSES.map((value) => ({ value, label: t(`twPayment.subscriptionStatus.${value}`) })),
      }),
    ],
    [t]
  )

  /** Writes the table's state back into the URL; a new filter starts at the first page. */
  const go = (changes: { status?: string | null; offset?: number }) => {
    const next = new URLSearchParams(params)
    const nextStatus = changes.status === undefined ? status : changes.status
    if (nextStatus) {
      next.set("status", nextStatus)
    } else {
      next.delete("status")
    }
    next.set("offset", String(changes.offset ?? 0))
    setParams(next)
  }
  const pagination: DataTablePaginationState = { pageSize: PAGE_SIZE, pageIndex: Math.floor(offset / PAGE_SIZE) }
  const filtering: DataTableFilteringState = status ? { status } : {}

  const table = useDataTable({
    columns: useSubscriptionColumns(customerLabel),
    data: subscriptions,
    getRowId: (s) => s.id,
    rowCount: list.data?.count ?? 0,
    isLoading: list.isLoading,
    filters,
    pagination: { state: pagination, onPaginationChange: (p) => go({ offset: p.pageIndex * PAGE_SIZE }) },
    filtering: { state: filtering, onFilteringChange: (f) => go({ status: typeof f.status === "string" ? f.status : null }) },
    onRowClick: (_event, s) => void navigate(`/tw-subscriptions/${s.id}`),
  })

  return (
    <Container className="divide-y p-0" data-testid="tw-subscriptions-table">
      <DataTable instance={table}>
        <DataTable.Toolbar className="flex items-start justify-between gap-x-4 px-6 py-4">
          <div>
            <Heading level="h1">{t("twPayment.subscriptions.title")}</Heading>
            <Text size="small" className="text-ui-fg-subtle">
              {t("twPayment.subscriptions.description")}
            </Text>
          </div>
          <DataTable.FilterMenu tooltip={t("twPayment.subscriptions.filterTooltip")} />
        </DataTable.Toolbar>
        {list.error ? (
          <Text className="text-ui-fg-error px-6 py-4">{list.error.message}</Text>
        ) : (
          <DataTable.Table
            emptyState={{
              empty: { heading: t("twPayment.subscriptions.empty"), description: t("twPayment.subscriptions.emptyDescription") },
              filtered: { heading: t("twPayment.subscriptions.emptyFiltered") },
            }}
          />
        )}
        <DataTable.Pagination />
      </DataTable>
    </Container>
  )
}

export const config = defineRouteConfig({ label: "twPayment.subscriptions.menu", translationNs: "translation", icon: CreditCardRefresh })

export default SubscriptionsPage
