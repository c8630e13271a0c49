import type { HttpTypes } from "@medusajs/types"

/** What the checkout does once an option has started the payment. */
export type PaymentStart =
  /** The shopper pays elsewhere (a hosted page) and comes back to a return page of the option. */
  | { next: "redirect"; url: string }
  /** The payment was made on this page (an embedded card form): complete the cart now. */
  | { next: "complete-cart" }

/**
 * One way to pay offered on the checkout page. The checkout lists every
 * option whose Medusa payment provider the cart's region enables, shows the
 * chosen option's own fields, and calls `start` when the shopper confirms.
 */
export interface PaymentOption {
  /** Stable id, used in element ids: `payment-option-<id>`. */
  id: string
  /** The Medusa payment provider id this option pays through. */
  providerId: string
  label: string
  hint: string
  /** Draws the option's own fields (shown while the option is selected). */
  renderFields(container: HTMLElement): void
  /** Creates the payment session and does whatever comes next; throws a message for the shopper on failure. */
  start(cart: HttpTypes.StoreCart): Promise<PaymentStart>
}
