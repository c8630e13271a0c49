import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { type EmbeddedCardSession, embeddedCardSessionOf } from "./embedded-card-session.js"
import type { KitLocale } from "./locale.js"
import { KIT_ERROR_CODES, TwPaymentError } from "./payment-error.js"
import { EMBEDDED_CARD_PROVIDER_ID } from "./provider-ids.js"
import { checkedReturnPath } from "./return-path.js"
import { storeCall } from "./store-answer.js"

export interface EmbeddedCardInput {
  /** A path on the storefront for the SDK to come back to instead of the store's configured one. */
  returnPath?: string
  /** The card form's language (the session gives it back for the SDK's constructor); the store's default when absent. */
  locale?: KitLocale
  providerId?: string
}

/**
 * A card payment in the store's own checkout: a payment session whose
 * provider creates a payment intent, and what the service's browser SDK needs
 * to mount its card form for it. Each call makes a new intent; the card form
 * of an earlier one must go. The provider issues no e-invoice.
 */
export async function startEmbeddedCard(sdk: Medusa, cart: HttpTypes.StoreCart, input: EmbeddedCardInput = {}, headers?: ClientHeaders): Promise<EmbeddedCardSession> {
  const providerId = input.providerId ?? EMBEDDED_CARD_PROVIDER_ID
  const returnPath = checkedReturnPath(input.returnPath)
  const data = { ...(returnPath ? { return_path: returnPath } : {}), ...(input.locale ? { locale: input.locale } : {}) }
  const { payment_collection } = await storeCall(() => sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId, data }, {}, headers))
  const session = embeddedCardSessionOf(payment_collection.payment_sessions, providerId)
  if (!session) {
    throw new TwPaymentError("The card payment could not be started. Please try again, or choose another way to pay.", { code: KIT_ERROR_CODES.paymentUnavailable })
  }
  return session
}
