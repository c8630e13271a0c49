/**
 * Hosted checkout page addresses. The API returns only an id; the merchant builds
 * the page address on its own host (spec section 4) and must send the consumer
 * there before the page expires. Validity counts from the API call, not from the
 * consumer opening the page, so pages cannot be created ahead of time.
 */

export type CheckoutPageKind = "checkout" | "subscription" | "schedule" | "cardBinding"

const PAGE_PATHS: Record<CheckoutPageKind, string> = {
  checkout: "/checkout/",
  subscription: "/checkout/subscription/",
  schedule: "/checkout/schedule/",
  cardBinding: "/checkout/subscription/create/",
}

export const PAGE_VALIDITY_MS: Record<CheckoutPageKind, number> = {
  checkout: 5 * 60_000,
  subscription: 5 * 60_000,
  schedule: 5 * 60_000,
  cardBinding: 10 * 60_000,
}

export interface CheckoutPage {
  url: string
  /** Last moment the page accepts the consumer. */
  expiresAt: Date
}

/**
 * @param checkoutHost the merchant's hosted-page origin in the same environment as the API (`https://shop.example.com`)
 * @param calledAt when the create call was made (the expiry counts from it)
 */
export function checkoutPage(checkoutHost: string, kind: CheckoutPageKind, id: string, calledAt: Date): CheckoutPage {
  const host = checkoutHost.replace(/\/+$/, "")
  return {
    url: `${host}${PAGE_PATHS[kind]}${encodeURIComponent(id)}`,
    expiresAt: new Date(calledAt.getTime() + PAGE_VALIDITY_MS[kind]),
  }
}
