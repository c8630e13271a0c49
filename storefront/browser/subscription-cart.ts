import type { HttpTypes } from "@medusajs/types"
import { addLine, currentCart, newCart, SUBSCRIPTION_PLAN_KEY, subscriptionPlanIdOf } from "./cart"
import type { SubscriptionPlan } from "medusa-payment-tw-storefront"

/**
 * "Subscribe" on a product page: a cart of its own holding the plan's variant
 * alone, marked with the plan. The payment service charges one amount per
 * period, so a subscription is never mixed with other items.
 */
export async function startSubscriptionCart(plan: SubscriptionPlan, customer: HttpTypes.StoreCustomer): Promise<HttpTypes.StoreCart> {
  const cart = await currentCart()
  if (cart?.items?.length) {
    const item = cart.items[0]
    if (subscriptionPlanIdOf(cart) === plan.id && cart.items.length === 1 && item.variant_id === plan.variant_id) {
      return cart
    }
    throw new Error(
      subscriptionPlanIdOf(cart)
        ? "Your cart already holds another subscription. A cart holds one subscription: check that one out or remove it first."
        : "Your cart holds other items. A subscription is checked out on its own (the payment service charges one amount each period): check out or empty your cart first, then subscribe."
    )
  }
  // An empty cart is left behind: the subscription's cart is created for the customer, marked with the plan.
  const created = await newCart({ email: customer.email, metadata: { [SUBSCRIPTION_PLAN_KEY]: plan.id } })
  return addLine(created.id, plan.variant_id, 1)
}
