import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"

/**
 * The captures of the renewal order's payment as order transactions (those
 * not recorded yet), then `order.placed`. Safe to run again after a crash
 * anywhere in it: a transaction is added once per capture, and the event is
 * sent at least once.
 */
async function recordRenewalPayment(container: MedusaContainer, orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "currency_code", "transactions.reference_id", "payment_collections.payments.captures.id", "payment_collections.payments.captures.amount"],
    filters: { id: orderId },
  })
  const order = data[0] as
    | {
        currency_code: string
        transactions?: Array<{ reference_id: string | null } | null>
        payment_collections?: Array<{ payments?: Array<{ captures?: Array<{ id: string; amount: BigNumberInput } | null> } | null> } | null>
      }
    | undefined
  if (!order) {
    return
  }
  const recorded = new Set((order.transactions ?? []).map((t) => t?.reference_id))
  const captures = (order.payment_collections ?? []).flatMap((c) => c?.payments ?? []).flatMap((p) => p?.captures ?? [])
  const missing = captures.filter((capture): capture is { id: string; amount: BigNumberInput } => !!capture && !recorded.has(capture.id))
  if (missing.length) {
    await container.resolve(Modules.ORDER).addOrderTransactions(
      missing.map((capture) => ({ order_id: orderId, amount: capture.amount, currency_code: order.currency_code, reference: "capture", reference_id: capture.id }))
    )
  }
  await container.resolve(Modules.EVENT_BUS).emit({ name: "order.placed", data: { id: orderId } })
}

export interface RecordRenewalPaymentInput {
  subscriptionId: string
  periodId: string
  period: number
  transactionHid: string
  orderId: string
}

/**
 * The payment recorded on the order (transactions, `order.placed`, so
 * fulfilment and notifications work as for any order), then the period set
 * paid: from then on readers see the period's order. Undone by setting the
 * period unpaid again; the transactions stand for captures that happened.
 */
export const recordTwRenewalPaymentStep = createStep(
  "record-tw-renewal-payment",
  async ({ subscriptionId, periodId, period, transactionHid, orderId }: RecordRenewalPaymentInput, { container }) => {
    const module = subscriptionModule(container)
    const before = await module.retrieveTwSubscriptionPeriod(periodId, { select: ["id", "order_paid"] })
    await recordRenewalPayment(container, orderId)
    await module.updateTwSubscriptionPeriods({ id: periodId, order_paid: true })
    container.resolve(ContainerRegistrationKeys.LOGGER).info(`medusa-payment-tw: renewal order ${orderId} for period ${period} of subscription ${subscriptionId} (${transactionHid})`)
    return new StepResponse<undefined, string | null>(undefined, before.order_paid ? null : periodId)
  },
  async (periodId, { container }) => {
    if (periodId) {
      await subscriptionModule(container).updateTwSubscriptionPeriods({ id: periodId, order_paid: false })
    }
  }
)
