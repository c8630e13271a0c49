import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { pluginProviders } from "../providers/plugin-providers"
import { type OrderPayments, OWED_REFUND_FIELDS, owedRefunds } from "../workflows/refunds/decisions/owed-refunds"
import { refundTwCancelledOrderWorkflow } from "../workflows/refunds/refund-tw-cancelled-order"

/** How far back cancelled orders are looked at: well past any wait for the merchant's next sales. */
const WINDOW_MS = 30 * 24 * 3600_000
/** Orders read per run, newest cancellation first. */
const ORDERS_PER_RUN = 500

/**
 * A refund of a cancelled order that the service refused (`F0001`: too little
 * collected and not yet paid out) or that failed for a moment is owed to the
 * shopper: tried again here until it goes through. Each failure is logged as
 * an error, for the merchant to see until then.
 */
export default async function reconcileTwCancelledOrders(container: MedusaContainer, { force = false, now = Date.now() }: { force?: boolean; now?: number } = {}) {
  if (!force && !pluginProviders(container).some((provider) => provider.reconciliation.enabled)) {
    return
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: OWED_REFUND_FIELDS,
    filters: { status: "canceled", canceled_at: { $gte: new Date(now - WINDOW_MS) } },
    pagination: { take: ORDERS_PER_RUN, order: { canceled_at: "DESC" } },
  })
  for (const order of data as Array<OrderPayments & { id: string }>) {
    if (!owedRefunds(order).length) {
      continue
    }
    try {
      await refundTwCancelledOrderWorkflow(container).run({ input: order.id })
      logger.info(`medusa-payment-tw: the refund owed for cancelled order ${order.id} went through`)
    } catch (error) {
      logger.error(`medusa-payment-tw: cancelled order ${order.id} still owes its refund: ${untrusted((error as Error).message, 600)}`)
    }
  }
}

export const config = {
  name: "medusa-payment-tw-reconcile-cancelled-orders",
  schedule: "*/15 * * * *",
}
