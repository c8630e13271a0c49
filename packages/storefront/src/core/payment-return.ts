import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { type CartCompletion, type CompleteCartOptions, completeCart } from "./cart-completion.js"
import { embeddedCardSessionOf } from "./embedded-card-session.js"
import { isEmbeddedCardProvider, isHostedCheckoutProvider } from "./provider-ids.js"
import { answerOfError, storeError } from "./store-answer.js"

/**
 * What the return page found: the completion of the cart, or that there is
 * nothing to complete (`no_cart`: none, or gone; `no_payment`: the cart has
 * no payment of this plugin to complete, or not the one the address names).
 */
export type PaymentReturn = CartCompletion | { kind: "no_cart" } | { kind: "no_payment"; cart: HttpTypes.StoreCart }

export interface PaymentReturnOptions extends Pick<CompleteCartOptions, "attempts" | "retryDelayMs"> {
  /**
   * The `payment_intent` the card SDK put in the return address. Anyone can
   * type such an address, so it can only refuse: an intent other than the
   * cart's current one (an earlier attempt, another cart) completes nothing.
   */
  paymentIntentId?: string | null
  headers?: ClientHeaders
}

const FIELDS = "id,completed_at,customer_id,*payment_collection,*payment_collection.payment_sessions"

/**
 * The return page after a hosted page or a card confirmation. Nothing in
 * its address is believed (`redirect_status`, `payment_error`): the cart is
 * read afresh, and completing it has the provider read the payment at the
 * service. A cart the service's notification completed meanwhile answers
 * with its order.
 */
export async function returnFromPayment(sdk: Medusa, cartId: string | null | undefined, options: PaymentReturnOptions = {}): Promise<PaymentReturn> {
  if (!cartId) {
    return { kind: "no_cart" }
  }
  const { headers, paymentIntentId } = options
  let cart: HttpTypes.StoreCart
  try {
    cart = (await sdk.store.cart.retrieve(cartId, { fields: FIELDS }, headers)).cart
  } catch (error) {
    const answer = answerOfError(error)
    if (answer?.status === 404) {
      return { kind: "no_cart" }
    }
    throw answer ? storeError(answer) : error
  }
  if (!cart.completed_at) {
    const sessions = cart.payment_collection?.payment_sessions ?? []
    if (paymentIntentId !== undefined && embeddedCardSessionOf(sessions)?.paymentIntentId !== paymentIntentId) {
      return { kind: "no_payment", cart }
    }
    if (!sessions.some((s) => isHostedCheckoutProvider(s.provider_id) || isEmbeddedCardProvider(s.provider_id))) {
      return { kind: "no_payment", cart }
    }
  }
  return completeCart(sdk, cartId, options)
}

/**
 * The shopper code of the `payment_error` the hosted page's failure address
 * carries (`T0001` to `T0005`: the card declines; `V0002`: the page expired).
 * Anyone can type that address, so it may only choose the words: the return
 * page uses it to say why when the store's own read found no reason
 * (`payment_failed`), never to decide what happened.
 */
export function failureAddressCode(paymentError: string | null | undefined): string | undefined {
  const code = (paymentError ?? "").trim().toUpperCase()
  if (/^T000[1-5]$/.test(code)) {
    return `card_declined_${code.toLowerCase()}`
  }
  return code === "V0002" ? "payment_page_expired" : undefined
}
