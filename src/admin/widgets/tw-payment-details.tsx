import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import type { FormEvent } from "react"
import { useTranslation } from "react-i18next"
import type { TwPaymentView } from "../../shared/payment-views"
import { isProviderOf } from "../../shared/provider-ids"
import { RemittanceInputs, remittanceOf } from "../components/remittance-fields"
import { useSaveRemittance, useTwPayment } from "../hooks/payments"

/** The code or account the shopper pays to, and until when. */
function PaymentInfo({ info }: { info: TwPaymentView["payment_info"] }) {
  const { t } = useTranslation()
  if (!info || typeof info !== "object") {
    return null
  }
  return (
    <Text size="small" data-testid="tw-payment-info">
      {"code" in info
        ? t("twPayment.payment.code", { code: info.code, store: info.cvsName, until: info.expiredAt })
        : t("twPayment.payment.account", { bank: info.bankCode, account: info.account, until: info.expiredAt })}
    </Text>
  )
}

/** Remittance details for refunding a paid cvs/atm payment: the service refunds those by bank transfer. */
function RemittanceForm({ payment }: { payment: TwPaymentView }) {
  const { t } = useTranslation()
  const save = useSaveRemittance(payment.id)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    save.mutate(remittanceOf(event.currentTarget), { onSuccess: () => toast.success(t("twPayment.payment.remittanceSaved")) })
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-y-2">
      <Text size="small">
        {payment.remittance
          ? t("twPayment.payment.remittanceOnFile", { bank: payment.remittance.bank_name, account: payment.remittance.account })
          : t("twPayment.payment.remittanceNeeded")}
      </Text>
      <RemittanceInputs idPrefix={`tw-${payment.id}`} />
      <Button size="small" type="submit" isLoading={save.isPending}>
        {t("twPayment.payment.remittanceSave")}
      </Button>
      {save.error && <Text className="text-ui-fg-error">{save.error.message}</Text>}
    </form>
  )
}

/** One hosted-checkout payment: its state at the service, and remittance details for a cvs/atm refund. */
function PaymentPanel({ paymentId }: { paymentId: string }) {
  const { t } = useTranslation()
  const { data, error } = useTwPayment(paymentId)
  if (!data) {
    return <Text className={error ? "text-ui-fg-error px-6 py-4" : "px-6 py-4"}>{error?.message ?? t("twPayment.common.loading")}</Text>
  }
  const { payment } = data
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="tw-payment">
      <div className="flex items-center justify-between">
        <Text weight="plus" data-testid="tw-payment-transaction">
          {payment.transaction_hid}
        </Text>
        <Badge data-testid="tw-payment-status">{payment.status ?? t("twPayment.payment.unknown")}</Badge>
      </div>
      <Text size="small" data-testid="tw-payment-method">
        {t("twPayment.payment.method", { method: payment.payment_method ?? t("twPayment.payment.methodNone") })}
      </Text>
      <PaymentInfo info={payment.payment_info} />
      {payment.invoice && (
        <Text size="small" data-testid="tw-invoice">
          {t("twPayment.payment.invoice", { label: payment.invoice.label })}
          {payment.invoice.carrier ? ` ${payment.invoice.carrier}` : ""}
          {payment.invoice.tax_id ? ` ${payment.invoice.tax_id}` : ""}
          {payment.invoice.company_name ? ` (${payment.invoice.company_name})` : ""}
        </Text>
      )}
      {payment.refund && (
        <Text size="small">
          {t("twPayment.payment.refunded", { amount: payment.refund.amount, status: payment.refund.status })}
          {payment.refund.status === "refunding" ? t("twPayment.payment.refundingNote") : ""}
        </Text>
      )}
      {payment.needs_remittance && <RemittanceForm payment={payment} />}
    </div>
  )
}

/** On the order page's side: each hosted-checkout payment of the order. Nothing for other providers. */
const TwPaymentDetailsWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const { t } = useTranslation()
  const payments = (order.payment_collections ?? []).flatMap((c) => c.payments ?? []).filter((p) => isProviderOf("hosted-checkout", p.provider_id))
  if (!payments.length) {
    return null
  }
  return (
    <Container className="divide-y p-0" data-testid="tw-payment-details">
      <div className="px-6 py-4">
        <Heading level="h2">{t("twPayment.payment.title")}</Heading>
      </div>
      {payments.map((p) => (
        <PaymentPanel key={p.id} paymentId={p.id} />
      ))}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default TwPaymentDetailsWidget
