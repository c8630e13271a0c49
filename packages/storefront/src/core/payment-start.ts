/**
 * What a storefront does once a payment has started: send the shopper to the
 * service's page (they come back to the return page), or complete the cart at
 * once (a saved card is charged by the completion itself).
 */
export type PaymentStart = { next: "redirect"; url: string; expiresAt?: string } | { next: "complete_cart" }
