import Medusa from "@medusajs/js-sdk"
import { readConfig } from "./config"

/**
 * The one js-sdk client of the storefront. It calls the page's own origin:
 * the storefront server passes `/store/*` on to Medusa.
 */
export const sdk = new Medusa({
  baseUrl: window.location.origin,
  publishableKey: readConfig().publishableKey,
})
