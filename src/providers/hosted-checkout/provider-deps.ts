import type { Logger } from "@medusajs/framework/types"
import type { HostedCheckoutClient, ProductDetail } from "../../lib/hosted"
import type { Attestor } from "../core/attestation"
import type { HostedCheckoutApi } from "./hosted-checkout-api"
import type { ResolvedHostedCheckoutOptions } from "./options"

/**
 * What the provider's parts (one module per session kind under `sessions/`,
 * and `refund-transaction.ts`) use of it: plain values, so that each part is functions a
 * test can call without building a provider.
 */
export interface HostedDeps {
  client: HostedCheckoutClient
  options: ResolvedHostedCheckoutOptions
  logger: Logger
  /** Seals reads and terms (see `Attestor`). */
  attestor: Attestor
  /** The single product line of a page, charge or refund allowance. */
  productLine(amount: number): ProductDetail
}

export function hostedDeps(api: HostedCheckoutApi, logger: Logger): HostedDeps {
  return { client: api.client, options: api.options, logger, attestor: api.attestor, productLine: (amount) => api.productLine(amount) }
}
