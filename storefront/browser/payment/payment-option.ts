import type { HttpTypes } from "@medusajs/types"
import type { PaymentStart } from "medusa-payment-tw-storefront"

/**
 * What the checkout does once an option has started the payment (the kit's
 * type): send the shopper to a page of the service, which brings them back
 * to a return page of the option, or complete the cart now (an embedded card
 * form paid on this page, a saved card charged by the completion).
 */
export type { PaymentStart }

/** What an option's fields may ask of the checkout page. */
export interface PaymentCheckout {
  /** The cart being paid, as the checkout has it now. */
  readonly cart: HttpTypes.StoreCart
  /**
   * Whether "Place order and pay" may be pressed while this option is chosen
   * (yes until an option says otherwise): a card form says no until the card
   * details are complete.
   */
  setPayable(payable: boolean): void
}

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
  /**
   * Draws the option's own fields, the first time the shopper chooses the
   * option after the payment step was drawn: an option that needs a payment
   * session for its fields (a card form) creates it only when it is wanted.
   */
  renderFields(container: HTMLElement, checkout: PaymentCheckout): void
  /** Whether to offer the option at all for this shopper (a saved card: a logged-in customer with one); offered when absent. */
  available?(): Promise<boolean>
  /** Creates or confirms the payment and says what comes next; throws a message for the shopper on failure. */
  start(cart: HttpTypes.StoreCart): Promise<PaymentStart>
  /**
   * The failure this option's return page sent the shopper back to the
   * checkout with (in the address), as a message; undefined when there is none.
   * The checkout then opens with this option chosen and the message shown.
   */
  returnedFailure?(query: URLSearchParams): string | undefined
}
