import { DataTable, useDataTable } from "@medusajs/ui"
import { useNavigate } from "react-router-dom"
import type { SubscriptionListItem } from "../../shared/subscription-views"
import { useSubscriptionColumns } from "./subscription-columns"

interface Props {
  subscriptions: SubscriptionListItem[]
  isLoading?: boolean
  empty: string
}

/** A short list of subscriptions without paging (a customer's, an order's); a row opens its page. */
export function SubscriptionsTable({ subscriptions, isLoading, empty }: Props) {
  const navigate = useNavigate()
  const table = useDataTable({
    columns: useSubscriptionColumns(),
    data: subscriptions,
    getRowId: (s) => s.id,
    rowCount: subscriptions.length,
    isLoading,
    onRowClick: (_event, s) => void navigate(`/tw-subscriptions/${s.id}`),
  })
  return (
    <div data-testid="tw-subscriptions-table">
      <DataTable instance={table}>
        <DataTable.Table emptyState={{ empty: { heading: empty } }} />
      </DataTable>
    </div>
  )
}
