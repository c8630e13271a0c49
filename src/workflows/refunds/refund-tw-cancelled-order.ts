import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, refundPaymentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { untrusted } from "../../lib/log"
import { isProviderOf, PROVIDER_IDENTIFIERS } from "../../shared/provider-ids"

export const refundTwCancelledOrderWorkflowId = "refund-tw-cancelled-order"

interface OwedRefund {
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

const listOwedRefundsStep = createStep("list-tw-owed-refunds", async (orderId: string, { container }) => {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: OWED_REFUND_FIELDS, filters: { id: orderId } })
  return new StepResponse(owedRefunds(data[0] as OrderPayments | undefined))
})

/**
 * Each owed refund through core's `refund-payment-workflow` (the provider refunds at the service, the
 * order records it). Money returned cannot be taken back, so there is nothing to compensate; a refund the
 * service refuses (too little not yet paid out, say) fails the run, and the job tries again later.
 */
const refundOwedStep = createStep("refund-tw-owed-payments", async (owed: OwedRefund[], { container }) => {
  const failed: string[] = []
  for (const refund of owed) {
    try {
      await refundPaymentWorkflow(container).run({ input: { ...refund, note: "The order was cancelled; its refund had failed" } })
    } catch (error) {
      failed.push(`${refund.payment_id}: ${untrusted((error as Error).message, 300)}`)
    }
  }
  if (failed.length) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Not refunded yet (tried again by the reconciliation): ${failed.join("; ")}`)
  }
  return new StepResponse(owed.map((refund) => refund.payment_id))
})

/**
 * A cancelled order whose payment of this plugin kept its money: core's
 * `cancelOrderWorkflow` refunds captured payments but only logs a refund that
 * fails, and the order is cancelled all the same. Run after `order.canceled`
 * and by the job `reconcile-tw-cancelled-orders` until nothing is owed.
 */
export const refundTwCancelledOrderWorkflow = createWorkflow(refundTwCancelledOrderWorkflowId, (orderId: string) => {
  // The subscriber and the job may run at once: each reads what is owed only once the other has recorded its refund.
  const lockKey = transform({ orderId }, ({ orderId }) => `medusa-payment-tw:owed-refund:${orderId}`)
  acquireLockStep({ key: lockKey, timeout: 60, ttl: 300 })
  const owed = listOwedRefundsStep(orderId)
  const refunded = refundOwedStep(owed)
  releaseLockStep({ key: lockKey })
  return new WorkflowResponse(refunded)
})
