import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCardRefresh } from "@medusajs/icons"
import { Container, Heading, Select, Table, Text } from "@medusajs/ui"
import { useSearchParams } from "react-router-dom"
import { SubscriptionsTable } from "../../components/subscriptions-table"
import { useAdminGet } from "../../lib/admin-fetch"
import { customerName, STATUS_LABELS } from "../../lib/subscription-format"
import { type Subscription, SUBSCRIPTION_STATUSES } from "../../lib/subscription-types"

const PAGE_SIZE = 20
const ALL = "all"

interface ListAnswer {
  subscriptions: Subscription[]
  count: number
}
interface CustomersAnswer {
  customers: Array<{ id: string; email: string; first_name: string | null; last_name: string | null }>
}

/** The customers of one page, from Medusa's own customer list (one request: the subscription list carries ids only). */
function customersPath(subscriptions: Subscription[] | undefined) {
  const ids = [...new Set((subscriptions ?? []).map((s) => s.customer_id))]
  if (!ids.length) {
    return null
  }
  const query = new URLSearchParams({ fields: "id,email,first_name,last_name", limit: String(ids.length) })
  ids.forEach((id) => query.append("id[]", id))
  return `/admin/customers?${query}`
}

/** Sidebar "Subscriptions": every subscription, newest first, filtered by status; filter and page live in the URL. */
const SubscriptionsPage = () => {
  const [params, setParams] = useSearchParams()
  const status = params.get("status") ?? ALL
  const offset = Math.max(0, Number(params.get("offset")) || 0)
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset), ...(status === ALL ? {} : { status }) })
  const list = useAdminGet<ListAnswer>(`/admin/tw-subscriptions?${query}`)
  const customers = useAdminGet<CustomersAnswer>(customersPath(list.data?.subscriptions))
  const byId = new Map((customers.data?.customers ?? []).map((c) => [c.id, customerName(c)]))

  const go = (changes: { status?: string; offset?: number }) => {
    const next = new URLSearchParams(params)
    const nextStatus = changes.status ?? status
    if (nextStatus === ALL) {
      next.delete("status")
    } else {
      next.set("status", nextStatus)
    }
    next.set("offset", String(changes.offset ?? 0))
    setParams(next)
  }

  const count = list.data?.count ?? 0
  const pageCount = Math.max(1, Math.ceil(count / PAGE_SIZE))
  const pageIndex = Math.floor(offset / PAGE_SIZE)
  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">Subscriptions</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Recurring card payments through the hosted checkout; every paid period is an order.
          </Text>
        </div>
        <div className="w-56">
          <Select value={status} onValueChange={(value) => go({ status: value })} size="small">
            <Select.Trigger aria-label="Status" data-testid="tw-subscriptions-status">
              <Select.Value />
            </Select.Trigger>
            <Select.Content>
              <Select.Item value={ALL}>All statuses</Select.Item>
              {SUBSCRIPTION_STATUSES.map((s) => (
                <Select.Item key={s} value={s}>
                  {STATUS_LABELS[s]}
                </Select.Item>
              ))}
            </Select.Content>
          </Select>
        </div>
      </div>
      {list.error ? (
        <Text className="text-ui-fg-error px-6 py-4">{list.error}</Text>
      ) : !list.data ? (
        <Text className="px-6 py-4">Loading…</Text>
      ) : (
        <>
          <SubscriptionsTable
            subscriptions={list.data.subscriptions}
            customerLabel={(id) => byId.get(id) ?? id}
            empty={status === ALL ? "No subscriptions yet. Offer a plan on a product variant's page." : `No ${STATUS_LABELS[status as Subscription["status"]]?.toLowerCase() ?? status} subscriptions.`}
          />
          {count > PAGE_SIZE && (
            <Table.Pagination
              count={count}
              pageSize={PAGE_SIZE}
              pageIndex={pageIndex}
              pageCount={pageCount}
              canPreviousPage={pageIndex > 0}
              canNextPage={pageIndex + 1 < pageCount}
              previousPage={() => go({ offset: offset - PAGE_SIZE })}
              nextPage={() => go({ offset: offset + PAGE_SIZE })}
            />
          )}
        </>
      )}
    </Container>
  )
}

export const config = defineRouteConfig({ label: "Subscriptions", icon: CreditCardRefresh })

export default SubscriptionsPage
