import type { HttpTypes } from "@medusajs/types"
import { sdk } from "./medusa"

/**
 * The orders a subscription's periods became (its first order, then one
 * renewal order per paid period), read through the store's order route: what
 * the subscription pages show of them (number, item, payment state).
 */
export type SubscriptionOrder = Pick<HttpTypes.StoreOrder, "id" | "display_id" | "payment_status" | "total" | "currency_code" | "items">

const FIELDS = "id,display_id,+payment_status,total,currency_code,*items"

export async function ordersById(ids: Array<string | null | undefined>): Promise<Map<string, SubscriptionOrder>> {
  const unique = [...new Set(ids.filter((id): id is string => Boolean(id)))]
  const orders = await Promise.all(unique.map(async (id) => (await sdk.store.order.retrieve(id, { fields: FIELDS })).order))
  return new Map(orders.map((order) => [order.id, order]))
}

/** What was subscribed to: the first order's item ("Tea of the Month Box"), else (no order yet) the plan's title. */
export const subscribedItem = (firstOrder: SubscriptionOrder | undefined, planTitle?: string | null) =>
  firstOrder?.items?.[0]?.product_title ?? firstOrder?.items?.[0]?.title ?? planTitle ?? "Subscription"

const PAYMENT_LABELS: Record<string, string> = {
  captured: "Paid",
  authorized: "Authorized",
  not_paid: "Awaiting payment",
  awaiting: "Awaiting payment",
  refunded: "Refunded",
  partially_refunded: "Partly refunded",
  canceled: "Canceled",
}

export const orderPaymentLabel = (order: SubscriptionOrder) => PAYMENT_LABELS[String(order.payment_status)] ?? String(order.payment_status)
