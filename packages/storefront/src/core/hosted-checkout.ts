import type Medusa from "@medusajs/js-sdk"
import type { ClientHeaders } from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { hostedSessionOf } from "./hosted-session.js"
import { checkedInvoice } from "./invoice-choice.js"
import type { InvoiceInfo } from "./invoice-info.js"
import { KIT_ERROR_CODES, TwPaymentError } from "./payment-error.js"
import type { PaymentStart } from "./payment-start.js"
import { HOSTED_CHECKOUT_PROVIDER_ID } from "./provider-ids.js"
import { checkedReturnPath } from "./return-path.js"
import { storeCall } from "./store-answer.js"

/**
 * Methods a storefront may ask the hosted page to offer besides the card, as
 * far as the store's provider options allow them. Apple Pay is offered by the
 * service's page itself where the shopper's device has it; it cannot be asked for.
 */
export const HOSTED_METHODS = ["card", "cvs", "atm", "linePay"] as const
export type HostedMethod = (typeof HOSTED_METHODS)[number]

export interface HostedCheckoutInput {
  /** Methods the page offers (the provider's `methods`); the card when none. */
  methods?: HostedMethod[]
  /** The shopper's e-invoice choice, checked with the provider's rules before anything is created. */
  invoice?: InvoiceInfo
  /** A path on the storefront to come back to instead of the store's configured one. */
  returnPath?: string
  providerId?: string
}

export type HostedCheckoutStart = Extract<PaymentStart, { next: "redirect" }> & { sessionId: string }

/**
 * A payment on the service's hosted page: a payment session whose provider
 * opens the page (valid 5 minutes). Send the shopper to `url`; the page
 * sends them back to the return page. Only the cart's own buyer and lines
 * are invoiced: the store puts them into the session, whatever is sent.
 */
export async function startHostedCheckout(sdk: Medusa, cart: HttpTypes.StoreCart, input: HostedCheckoutInput = {}, headers?: ClientHeaders): Promise<HostedCheckoutStart> {
  const providerId = input.providerId ?? HOSTED_CHECKOUT_PROVIDER_ID
  // Refused here, naming the field, before anything is created at the service.
  const invoice = input.invoice === undefined ? undefined : checkedInvoice(input.invoice)
  const returnPath = checkedReturnPath(input.returnPath)
  const data = {
    ...(input.methods ? { methods: input.methods } : {}),
    ...(invoice ? { invoice } : {}),
    ...(returnPath ? { return_path: returnPath } : {}),
  }
  const { payment_collection } = await storeCall(() => sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId, data }, {}, headers))
  const session = hostedSessionOf(payment_collection.payment_sessions, providerId)
  if (!session?.checkoutUrl) {
    throw new TwPaymentError("The payment page could not be opened. Please try again.", { code: KIT_ERROR_CODES.paymentUnavailable })
  }
  return { next: "redirect", url: session.checkoutUrl, ...(session.expiresAt ? { expiresAt: session.expiresAt } : {}), sessionId: session.id }
}
