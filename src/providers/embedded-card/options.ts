import { z } from "zod"
import { absoluteUrl, deliveriesSchema, parseOptions, reconciliationSchema, timeoutsSchema } from "../core/options"
const webhookSecret = z.string().regex(/^whsec_\S{48}$/, "must be a whsec_ signing secret of 54 characters")

export const embeddedCardOptionsSchema = z.strictObject({
  /** `sk_` secret key: backend calls only, never sent to the storefront. */
  secretKey: z.string().regex(/^sk_\S{32}$/, "must be an sk_ secret key of 35 characters"),
  /** `pk_` publishable key, handed to the storefront for the SDK. */
  publishableKey: z.string().regex(/^pk_\S{24}$/, "must be a pk_ publishable key of 27 characters"),
  /**
   * Signing secret(s) of the store's webhook endpoint. During a rotation list
   * the new and the old one: a delivery signed with either is accepted.
   * Without one every webhook is rejected (a warning says so at boot).
   */
  webhookSecrets: z
    .union([webhookSecret, z.array(webhookSecret).max(4)])
    .optional()
    .transform((s) => (s === undefined ? [] : Array.isArray(s) ? s : [s])),
  /** API base URL, without `/v1`. */
  apiBaseUrl: absoluteUrl,
  /** The browser SDK the storefront loads (the version-pinned path in production). */
  sdkUrl: absoluteUrl,
  /** Subresource-integrity hash of the pinned SDK, handed to the storefront with its URL. */
  sdkIntegrity: z.string().regex(/^sha(256|384|512)-/).optional(),
  /** The storefront the SDK sends the shopper back to after a successful payment. */
  storefrontUrl: absoluteUrl,
  returnPath: z.string().regex(/^\/[^?#]*$/, "must be a path starting with /").default("/checkout/card/return"),
  /** Shown on the shopper's statement and in the service's console. */
  description: z.string().max(1000).optional(),
  timeouts: timeoutsSchema,
  reconciliation: reconciliationSchema,
  /** Delay and attempts of the plugin's intake of notifications/webhooks (see core/options.ts). */
  deliveries: deliveriesSchema,
})

export type EmbeddedCardOptions = z.input<typeof embeddedCardOptionsSchema>
export type ResolvedEmbeddedCardOptions = z.output<typeof embeddedCardOptionsSchema>

export function parseEmbeddedCardOptions(options: unknown): ResolvedEmbeddedCardOptions {
  return parseOptions(embeddedCardOptionsSchema, options, "embedded-card")
}
