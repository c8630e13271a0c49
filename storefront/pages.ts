/**
 * The storefront's pages: which path shows which page. Each page is an HTML
 * fragment in `pages/<name>.html`, wrapped in `pages/layout.html`, and a
 * browser entry `browser/pages/<name>.ts` that fills it in through the store API.
 */
export interface PageDefinition {
  name: string
  title: string
  path: RegExp
}

export const PAGES: readonly PageDefinition[] = [
  { name: "products", title: "Shop", path: /^\/$/ },
  { name: "product", title: "Product", path: /^\/products\/[a-z0-9-]+$/ },
  { name: "cart", title: "Your cart", path: /^\/cart$/ },
  { name: "checkout", title: "Checkout", path: /^\/checkout$/ },
  // The two addresses the hosted-checkout provider sends the shopper back to (its successPath and failurePath).
  { name: "hosted-return", title: "Confirming your payment", path: /^\/checkout\/hosted\/return$/ },
  { name: "hosted-failed", title: "Payment failed", path: /^\/checkout\/hosted\/failed$/ },
  // Where the card SDK sends the shopper after confirming (the embedded-card provider's returnUrl).
  { name: "card-return", title: "Confirming your payment", path: /^\/checkout\/card\/return$/ },
  { name: "order", title: "Order confirmation", path: /^\/orders\/[A-Za-z0-9_]+$/ },
  // A customer's login and account sections (browser/account/sections.ts), and one subscription of theirs.
  { name: "account", title: "Your account", path: /^\/account$/ },
  { name: "subscription", title: "Your subscription", path: /^\/account\/subscriptions\/[A-Za-z0-9_]+$/ },
]

/** Shown for any other path; static, so it has no browser entry. */
export const NOT_FOUND = { name: "not-found", title: "Page not found" } as const

export function pageFor(pathname: string): PageDefinition | undefined {
  return PAGES.find((page) => page.path.test(pathname))
}
