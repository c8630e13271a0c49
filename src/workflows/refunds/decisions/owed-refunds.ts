import { MathBN } from "@medusajs/framework/utils"
import { isProviderOf, PROVIDER_IDENTIFIERS } from "../../../shared/provider-ids"

export interface OwedRefund {
  payment_id: string
  amount: number
}

type PaymentRow = {
  id: string
  provider_id: string
  data?: Record<string, unknown> | null
  captures?: Array<{ amount: unknown } | null> | null
  refunds?: Array<{ amount: unknown } | null> | null
} | null

/** What an order's query must fetch for `owedRefunds`. */
export const OWED_REFUND_FIELDS = [
  "id",
  "status",
  "payment_collections.payments.id",
  "payment_collections.payments.provider_id",
  "payment_collections.payments.data",
  "payment_collections.payments.captures.amount",
  "payment_collections.payments.refunds.amount",
]

export interface OrderPayments {
  status: string
  payment_collections?: Array<{ payments?: PaymentRow[] | null } | null> | null
}

const sum = (rows: Array<{ amount: unknown } | null> | null | undefined) => (rows ?? []).reduce((total, row) => MathBN.add(total, MathBN.convert(Number(row?.amount ?? 0))), MathBN.convert(0))

/** cvs/atm money goes back by remittance, once the merchant has the shopper's bank account (`cancelled-order-refund`). */
const byRemittance = (payment: NonNullable<PaymentRow>) => payment.data?.paymentMethod === "cvs" || payment.data?.paymentMethod === "atm"

/** This plugin's captured card or wallet payments of a cancelled order that still hold money (core's cancel logs a failed refund and goes on). */
export function owedRefunds(order: OrderPayments | undefined): OwedRefund[] {
  if (order?.status !== "canceled") {
    return []
  }
  return (order.payment_collections ?? [])
    .flatMap((collection) => collection?.payments ?? [])
    .filter((payment): payment is NonNullable<PaymentRow> => !!payment && PROVIDER_IDENTIFIERS.some((identifier) => isProviderOf(identifier, payment.provider_id)) && !byRemittance(payment))
    .map((payment) => ({ payment_id: payment.id, amount: MathBN.sub(sum(payment.captures), sum(payment.refunds)).toNumber() }))
    .filter((refund) => refund.amount > 0)
}
