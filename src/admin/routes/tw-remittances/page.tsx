import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ArrowUturnLeft } from "@medusajs/icons"
import { Container, Table, Text } from "@medusajs/ui"
import { useTranslation } from "react-i18next"
import { useSearchParams } from "react-router-dom"
import { PageHeader } from "../../components/page-header"
import { RefundRemittanceDrawer } from "../../components/refund-remittance-drawer"
import { useRemittanceList } from "../../hooks/remittances"
import { formatAmount, formatDateTime } from "../../lib/subscription-format"

const PAGE_SIZE = 20

/**
 * Sidebar "Remittances": money the store holds no order for and only a bank remittance can return (a
 * convenience-store code or bank transfer paid for a checkout the store had dropped), newest first,
 * each refunded from its drawer with the shopper's account; `?status=refunded` lists those returned.
 */
const RemittancesPage = () => {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const status = params.get("status") === "refunded" ? "refunded" : "due"
  const offset = Math.max(0, Number(params.get("offset")) || 0)
  const list = useRemittanceList({ status, limit: PAGE_SIZE, offset })
  const rows = list.data?.remittances ?? []
  const count = list.data?.count ?? 0
  const go = (changes: { status?: string; offset?: number }) => setParams(new URLSearchParams({ status: changes.status ?? status, offset: String(changes.offset ?? 0) }))

  return (
    <Container className="divide-y p-0" data-testid="tw-remittances">
      <PageHeader
        title={t("twPayment.remittances.title")}
        description={t("twPayment.remittances.description")}
        choices={(["due", "refunded"] as const).map((value) => ({ value, label: t(`twPayment.remittances.status.${value}`) }))}
        chosen={status}
        onChoose={(value) => go({ status: value })}
      />
      {list.error ? (
        <Text className="text-ui-fg-error px-6 py-4">{list.error.message}</Text>
      ) : !rows.length && !list.isLoading ? (
        <Text size="small" className="text-ui-fg-subtle px-6 py-4">
          {t(`twPayment.remittances.empty.${status}`)}
        </Text>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>{t("twPayment.remittances.columns.paidAt")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.remittances.columns.transaction")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.remittances.columns.amount")}</Table.HeaderCell>
              <Table.HeaderCell>{t("twPayment.remittances.columns.why")}</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.id} data-testid={`tw-remittance-${row.id}`}>
                <Table.Cell>{formatDateTime(row.created_at)}</Table.Cell>
                <Table.Cell>
                  {row.transaction_hid} ({row.payment_method})
                </Table.Cell>
                <Table.Cell>{formatAmount(row.amount)}</Table.Cell>
                <Table.Cell className="max-w-xs truncate" title={row.reason}>
                  {row.reason}
                </Table.Cell>
                <Table.Cell>{row.refunded_at ? formatDateTime(row.refunded_at) : <RefundRemittanceDrawer remittance={row} />}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
      {count > PAGE_SIZE && (
        <Table.Pagination
          count={count}
          pageSize={PAGE_SIZE}
          pageIndex={Math.floor(offset / PAGE_SIZE)}
          pageCount={Math.ceil(count / PAGE_SIZE)}
          canPreviousPage={offset > 0}
          canNextPage={offset + PAGE_SIZE < count}
          previousPage={() => go({ offset: offset - PAGE_SIZE })}
          nextPage={() => go({ offset: offset + PAGE_SIZE })}
        />
      )}
    </Container>
  )
}

export const config = defineRouteConfig({ label: "twPayment.remittances.menu", translationNs: "translation", icon: ArrowUturnLeft })

export default RemittancesPage
