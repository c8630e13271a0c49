import { returnFromPayment } from "medusa-payment-tw-storefront"
import { forgetCart, storedCartId } from "../cart"
import { byId } from "../element"
import { sdk } from "../medusa"
import { runPage } from "../page"
import { CARD_ERROR_PARAM, NOT_PAID } from "../payment/card-errors"

/**
 * The card SDK sends the shopper here once a confirmation went through, with
 * `payment_intent`, `payment_intent_client_secret` and `redirect_status`.
 * Anyone can type such an address, so `redirect_status` is never believed:
 * the kit reads the cart afresh, completes nothing for an intent other than
 * the cart's own, and completing the cart has the provider read the intent.
 */

/** Back to the checkout's payment step, which explains the code. */
function backToPayment(code: string) {
  location.replace(`/checkout?${new URLSearchParams({ [CARD_ERROR_PARAM]: code })}`)
}

runPage("return-status", async () => {
  const result = await returnFromPayment(sdk, storedCartId(), { paymentIntentId: new URLSearchParams(location.search).get("payment_intent") })
  switch (result.kind) {
    case "no_cart":
      byId("return-title").textContent = "No checkout in progress"
      byId("return-status").hidden = true
      byId("return-error").textContent = "This browser has no cart waiting for a payment. If you have just paid, your order is placed and its confirmation is on its way by email."
      byId("return-problem").hidden = false
      byId("retry-payment").hidden = true
      return
    case "order":
      // Paid, or processing: the order is placed and awaits the payment (its confirmation says so).
      forgetCart()
      location.replace(`/orders/${result.order.id}`)
      return
    case "declined":
      backToPayment(result.code)
      return
    default:
      backToPayment(NOT_PAID)
  }
})
