import { returnFromPayment } from "medusa-payment-tw-storefront"
import { forgetCart, storedCartId } from "../cart"
import { byId } from "../element"
import { sdk } from "../medusa"
import { rememberSubscriptionCheckout, takeSubscriptionCheckout } from "../order-subscription"
import { runPage } from "../page"

/**
 * The hosted page sends the shopper here after paying, or after a
 * convenience-store code or virtual account was issued: place the order and
 * show its confirmation. Nothing in the address counts: the kit reads the
 * cart afresh and completes it, and the provider reads the payment at the service.
 */
function problem(title: string, message: string) {
  byId("return-title").textContent = title
  byId("return-status").hidden = true
  byId("return-error").textContent = message
  byId("return-problem").hidden = false
}

runPage("return-status", async () => {
  const cartId = storedCartId()
  const subscriptionId = cartId ? takeSubscriptionCheckout(cartId) : undefined
  const result = await returnFromPayment(sdk, cartId)
  if (result.kind === "no_cart") {
    problem("No checkout in progress", "This browser has no cart waiting for a payment. If you have just paid, your order is placed and its confirmation is on its way by email.")
    byId("retry-payment").hidden = true
    return
  }
  if (result.kind === "order") {
    forgetCart()
    // A subscription's first order names it, so the confirmation can say so.
    location.replace(`/orders/${result.order.id}${subscriptionId ? `?subscription=${encodeURIComponent(subscriptionId)}` : ""}`)
    return
  }
  if (cartId && subscriptionId) {
    rememberSubscriptionCheckout(cartId, subscriptionId)
  }
  problem(
    "We could not confirm your payment",
    "The payment service has not confirmed a payment for this order: the payment page may have been left before paying, or the payment did not go through. Nothing was charged for it; you can pay again."
  )
})
