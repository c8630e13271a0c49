import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { hostedSessionOf } from "./hosted-session.js"
import { checkedInvoice } from "./invoice-choice.js"
import type { InvoiceInfo } from "./invoice-info.js"
import { KIT_ERROR_CODES, TwPaymentError } from "./payment-error.js"
import type { PaymentStart } from "./payment-start.js"
import { HOSTED_CHECKOUT_PROVIDER_ID } from "./provider-ids.js"
import { storeCall } from "./store-answer.js"

export interface SavedCardPaymentInput {
  /** One of the logged-in customer's active saved cards (`twcard_…`). */
  savedCardId: string
  /** The logged-in customer: a cart they started before logging in becomes theirs first. */
  customerId: string
  invoice?: InvoiceInfo
  providerId?: string
}

export type SavedCardPaymentStart = Extract<PaymentStart, { next: "complete_cart" }> & { sessionId: string }

/**
 * A payment with a saved card, without leaving the store: the session names
 * the card, nothing is charged yet, and completing the cart charges it. The
 * store takes a saved card only for its own customer's cart, hence the
 * transfer of a cart started as a guest.
 */
export async function startSavedCardPayment(sdk: Medusa, cart: HttpTypes.StoreCart, input: SavedCardPaymentInput, headers?: ClientHeaders): Promise<SavedCardPaymentStart> {
  const providerId = input.providerId ?? HOSTED_CHECKOUT_PROVIDER_ID
  const invoice = input.invoice === undefined ? undefined : checkedInvoice(input.invoice)
  if (cart.customer_id !== input.customerId) {
    await storeCall(() => sdk.store.cart.transferCart(cart.id, {}, headers))
  }
  const data = { savedCardId: input.savedCardId, ...(invoice ? { invoice } : {}) }
  const { payment_collection } = await storeCall(() => sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId, data }, {}, headers))
  const session = hostedSessionOf(payment_collection.payment_sessions, providerId)
  if (!session?.savedCard) {
    throw new TwPaymentError("The payment with your saved card could not be started. Please try again.", { code: KIT_ERROR_CODES.paymentUnavailable })
  }
  return { next: "complete_cart", sessionId: session.id }
}
