import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Input, Label, Text } from "@medusajs/ui"
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { isProviderOf } from "../../providers/core/provider-keys"

interface TwPayment {
  id: string
  transaction_hid?: string
  status?: string
  payment_method?: string
  payment_info?: string | Record<string, string>
  refund: { amount: number; status: string; at: string } | null
  needs_remittance: boolean
  remittance: { bank_name: string; account: string } | null
  /** The shopper's e-invoice choice; personal carriers come masked. */
  invoice: { invoice_type: "cloud" | "company"; label: string; carrier?: string; tax_id?: string; company_name?: string } | null
}

const FIELDS = [
  ["bankCode", "Bank code"],
  ["bankName", "Bank name"],
  ["branchCode", "Branch code"],
  ["branchName", "Branch name"],
  ["account", "Account (8-14 characters)"],
  ["accountName", "Account holder"],
] as const

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { credentials: "include", headers: { "content-type": "application/json" }, ...init })
  const body = await res.json()
  if (!res.ok) {
    throw new Error(body.message ?? `HTTP ${res.status}`)
  }
  return body as T
}

/** One hosted-checkout payment: its state at the service, and remittance details for a cvs/atm refund. */
function PaymentPanel({ paymentId }: { paymentId: string }) {
  const [payment, setPayment] = useState<TwPayment>()
  const [error, setError] = useState<string>()
  const [saving, setSaving] = useState(false)

  const load = useCallback(() => {
    api<{ payment: TwPayment }>(`/admin/tw-payments/${paymentId}`)
      .then((r) => setPayment(r.payment))
      .catch((e: Error) => setError(e.message))
  }, [paymentId])
  useEffect(load, [load])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setSaving(true)
    setError(undefined)
    try {
      const body = Object.fromEntries(new FormData(event.currentTarget).entries())
      await api(`/admin/tw-payments/${paymentId}/remittance`, { method: "POST", body: JSON.stringify(body) })
      load()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setSaving(false)
    }
  }

  if (!payment) {
    return error ? <Text className="text-ui-fg-error">{error}</Text> : <Text>Loading…</Text>
  }
  const info = payment.payment_info
  return (
    <div className="flex flex-col gap-y-2 px-6 py-4">
      <div className="flex items-center justify-between">
        <Text weight="plus">{payment.transaction_hid}</Text>
        <Badge>{payment.status ?? "unknown"}</Badge>
      </div>
      <Text size="small">Method: {payment.payment_method ?? "not chosen yet"}</Text>
      {info && typeof info === "object" && (
        <Text size="small">
          {info.code ? `Code ${info.code} (${info.cvsName})` : `Account ${info.bankCode}-${info.account}`}, pay by {info.expiredAt}
        </Text>
      )}
      {payment.invoice && (
        <Text size="small" data-testid="tw-invoice">
          E-invoice: {payment.invoice.label}
          {payment.invoice.carrier ? ` ${payment.invoice.carrier}` : ""}
          {payment.invoice.tax_id ? ` ${payment.invoice.tax_id}` : ""}
          {payment.invoice.company_name ? ` (${payment.invoice.company_name})` : ""}
        </Text>
      )}
      {payment.refund && (
        <Text size="small">
          Refunded {payment.refund.amount} TWD: {payment.refund.status}
          {payment.refund.status === "refunding" ? " (the service remits it in 3 to 7 working days)" : ""}
        </Text>
      )}
      {payment.needs_remittance && (
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-y-2">
          <Text size="small">
            {payment.remittance
              ? `Refunds go to ${payment.remittance.bank_name} ${payment.remittance.account}. Replace:`
              : "This payment is refunded by bank remittance: enter the shopper's account before refunding."}
          </Text>
          {FIELDS.map(([name, label]) => (
            <div key={name}>
              <Label htmlFor={`tw-${paymentId}-${name}`} size="xsmall">
                {label}
              </Label>
              <Input id={`tw-${paymentId}-${name}`} name={name} size="small" required />
            </div>
          ))}
          <Button size="small" type="submit" isLoading={saving}>
            Save remittance details
          </Button>
        </form>
      )}
      {error && <Text className="text-ui-fg-error">{error}</Text>}
    </div>
  )
}

const TwPaymentDetailsWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const payments = (order.payment_collections ?? [])
    .flatMap((c) => c.payments ?? [])
    .filter((p) => isProviderOf("hosted-checkout", p.provider_id))
  if (!payments.length) {
    return null
  }
  return (
    <Container className="divide-y p-0">
      <div className="px-6 py-4">
        <Heading level="h2">Hosted checkout</Heading>
      </div>
      {payments.map((p) => (
        <PaymentPanel key={p.id} paymentId={p.id} />
      ))}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default TwPaymentDetailsWidget
