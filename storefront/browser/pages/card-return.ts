import { storedCartId } from "../cart"
import { completeCart } from "../complete-cart"
import { byId } from "../element"
import { sdk } from "../medusa"
import { runPage } from "../page"
import { CARD_ERROR_PARAM, NOT_PAID } from "../payment/card-errors"
import { embeddedSessionData } from "../payment/embedded-session"
import { twPayClient } from "../payment/twpay"

/**
 * The card SDK sends the shopper here once a confirmation went through, with
 * `payment_intent`, `payment_intent_client_secret` and `redirect_status`.
 * Anyone can type such an address, so `redirect_status` is never believed:
 * the intent is read again from the payment service, and the store API
 * decides when it completes the cart (the provider reads the intent itself).
 */

/** Back to the checkout's payment step, which explains the code. */
function backToPayment(code: string) {
  location.replace(`/checkout?${new URLSearchParams({ [CARD_ERROR_PARAM]: code })}`)
}

function problem(title: string, message: string) {
  byId("return-title").textContent = title
  byId("return-status").hidden = true
  byId("return-error").textContent = message
  byId("return-problem").hidden = false
}

runPage("return-status", async () => {
  const query = new URLSearchParams(location.search)
  const intentId = query.get("payment_intent")
  const clientSecret = query.get("payment_intent_client_secret")
  const cartId = storedCartId()
  if (!cartId) {
    problem("No checkout in progress", "This browser has no cart waiting for a payment. If you have just paid, your order is placed and its confirmation is on its way by email.")
    byId("retry-payment").hidden = true
    return
  }
  // A completed cart is read too: the payment service's webhook may have placed the order already.
  const { cart } = await sdk.store.cart.retrieve(cartId, { fields: "id,completed_at,*payment_collection,*payment_collection.payment_sessions" })
  const session = embeddedSessionData(cart.payment_collection?.payment_sessions)
  // Only the cart's own, current intent counts: an address from an earlier attempt or another cart pays nothing here.
  if (!session || !clientSecret || session.paymentIntentId !== intentId || session.clientSecret !== clientSecret) {
    backToPayment(NOT_PAID)
    return
  }

  const twpay = await twPayClient(session)
  const read = await twpay.retrievePaymentIntent(clientSecret)
  if (read.error) {
    problem("We could not check your payment", `The payment service did not answer (${read.error.code}). Reload this page in a moment; if you paid, your order will be placed.`)
    byId("retry-payment").hidden = true
    return
  }
  const { status, lastPaymentError } = read.paymentIntent
  if (status !== "succeeded" && status !== "processing") {
    backToPayment(lastPaymentError?.code ?? NOT_PAID)
    return
  }
  // Succeeded: the order is paid. Processing: the order is placed and awaits the payment (its confirmation says so).
  const completion = await completeCart(cartId)
  if (completion.kind === "order") {
    location.replace(`/orders/${completion.order.id}`)
    return
  }
  backToPayment(NOT_PAID)
})
