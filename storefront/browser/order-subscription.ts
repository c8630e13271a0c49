import { listSubscriptions, retrieveSubscription, type Subscription } from "medusa-payment-tw-storefront"
import { loggedInCustomer } from "./customer"
import { sdk } from "./medusa"

/** What an order is to one of the logged-in customer's subscriptions. */
export type OrderSubscription = { kind: "first"; subscription: Subscription } | { kind: "renewal"; subscription: Subscription; period: number }

/** The subscription a cart's checkout started, until the cart became its first order. */
const CHECKOUT_KEY = "medusa_payment_tw_demo_subscription_checkout"

export function rememberSubscriptionCheckout(cartId: string, subscriptionId: string) {
  localStorage.setItem(CHECKOUT_KEY, JSON.stringify({ cartId, subscriptionId }))
}

/** The subscription this cart's checkout started, if it did; forgotten once read. */
export function takeSubscriptionCheckout(cartId: string): string | undefined {
  const stored = localStorage.getItem(CHECKOUT_KEY)
  if (!stored) {
    return undefined
  }
  const { cartId: storedCart, subscriptionId } = JSON.parse(stored) as { cartId?: string; subscriptionId?: string }
  if (storedCart !== cartId) {
    return undefined
  }
  localStorage.removeItem(CHECKOUT_KEY)
  return subscriptionId
}

/**
 * Whether the order is a subscription's first order or one of its renewal
 * orders. The store's order route does not show an order's metadata, so this
 * asks the customer's own subscriptions: the one named in `?subscription=`
 * (the return page and the subscription page link orders so), else the list.
 * The store links a first order to its subscription just after placing it,
 * so a named subscription without one yet counts this order as its first.
 */
export async function subscriptionOfOrder(orderId: string, hint: string | null): Promise<OrderSubscription | undefined> {
  if (!(await loggedInCustomer())) {
    return undefined
  }
  if (hint) {
    const subscription = await retrieveSubscription(sdk, hint).catch(() => undefined)
    const period = subscription?.periods?.find((p) => p.order_id === orderId)
    if (subscription && period) {
      return period.period === 1 ? { kind: "first", subscription } : { kind: "renewal", subscription, period: period.period }
    }
    if (subscription && (subscription.first_order_id === orderId || !subscription.first_order_id)) {
      return { kind: "first", subscription }
    }
  }
  const first = (await listSubscriptions(sdk, { limit: 100 })).subscriptions.find((s) => s.first_order_id === orderId)
  return first ? { kind: "first", subscription: first } : undefined
}
