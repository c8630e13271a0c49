import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { placedOrder } from "../../payments/steps/complete-tw-paid-cart"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { FirstOrderState, KeptPeriod, KeptSubscription } from "../decisions/subscription-state"

/** The row as the sync needs it, its dates as ISO strings (a workflow's data is JSON). */
export interface SubscriptionRow extends KeptSubscription {
  kind: "monthly" | "scheduled"
  provider_key: string
  cart_id: string
  customer_id: string
  amount: number
  interval_months: number
  periods_total: number | null
  payment_session_id: string | null
  cancelled_at: string | null
}

export interface LoadedSubscription {
  subscription: SubscriptionRow
  periods: KeptPeriod[]
  /** The checkout's payment session; null when the row has none (nothing to read), `found: false` once Medusa dropped it. */
  checkout: { found: boolean; data: Record<string, unknown> } | null
  firstOrder: FirstOrderState | null
}

/** The order the checkout's cart was completed into, with whether its payment was captured. */
export async function firstOrderOfCart(container: MedusaContainer, cartId: string): Promise<FirstOrderState | undefined> {
  const orderId = await placedOrder(container, cartId)
  if (!orderId) {
    return undefined
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "status", "payment_collections.payments.captured_at"], filters: { id: orderId } })
  const order = data[0] as { id: string; status: string; payment_collections?: Array<{ payments?: Array<{ captured_at: unknown } | null> } | null> } | undefined
  if (!order) {
    return undefined
  }
  const paid = (order.payment_collections ?? []).some((c) => (c?.payments ?? []).some((p) => !!p?.captured_at))
  return { id: order.id, status: order.status, paid }
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

/** The subscription, its periods, its checkout's session and first order, read under the subscription's lock. */
export const loadTwSubscriptionStep = createStep("load-tw-subscription", async (id: string, { container }) => {
  const row = await subscriptionModule(container).retrieveTwSubscription(id, { relations: ["periods"] })
  const subscription: SubscriptionRow = {
    id: row.id,
    status: row.status,
    kind: row.kind,
    provider_key: row.provider_key,
    cart_id: row.cart_id,
    customer_id: row.customer_id,
    amount: row.amount,
    interval_months: row.interval_months,
    periods_total: row.periods_total,
    payment_session_id: row.payment_session_id,
    service_subscription_id: row.service_subscription_id,
    first_order_id: row.first_order_id,
    cancelled_at: iso(row.cancelled_at),
    cancel_reason: row.cancel_reason,
  }
  const periods = (row.periods ?? []).map((p) => ({ period: p.period, status: p.status, transaction_id: p.transaction_id }))
  if (!row.payment_session_id) {
    return new StepResponse<LoadedSubscription>({ subscription, periods, checkout: null, firstOrder: null })
  }
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: row.payment_session_id }, { select: ["id", "data"] })
  const checkout = { found: !!session, data: (session?.data ?? {}) as Record<string, unknown> }
  const firstOrder = (await firstOrderOfCart(container, row.cart_id)) ?? null
  return new StepResponse<LoadedSubscription>({ subscription, periods, checkout, firstOrder })
})
