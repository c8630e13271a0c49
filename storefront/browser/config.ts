/** Settings the storefront server writes into every page (storefront/page-html.ts). */
export interface StorefrontConfig {
  publishableKey: string
}

export function readConfig(): StorefrontConfig {
  const element = document.getElementById("storefront-config")
  if (!element?.textContent) {
    throw new Error("The page has no storefront configuration.")
  }
  return JSON.parse(element.textContent) as StorefrontConfig
}
