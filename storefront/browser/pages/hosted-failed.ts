import { currentCart } from "../cart"
import { byId } from "../element"
import { runPage, showCartCount } from "../page"
import { hostedPaymentErrorMessage } from "../payment/hosted-errors"

/** The hosted page sends the shopper here with `payment_error` when the payment failed. */
runPage("payment-error-message", async () => {
  const code = new URLSearchParams(location.search).get("payment_error")
  const message = byId("payment-error-message")
  message.textContent = hostedPaymentErrorMessage(code)
  if (code) {
    message.dataset.code = code
  }
  showCartCount(await currentCart())
})
