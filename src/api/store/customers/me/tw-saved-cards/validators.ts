import { z } from "zod"
import { storefrontPath } from "../../../../../providers/core/options"
import { pluginSchema } from "../../../../plugin-schema"

/** The plugin schema itself, for `validatePluginBody`. */
export const bindCardBody = z.strictObject({
  provider_id: z.string().startsWith("pp_hosted-checkout_", "must be a hosted-checkout provider id").optional(),
  /** Where the binding page sends the shopper back, on success and on failure (the service adds `payment_error`). */
  return_path: storefrontPath.optional(),
})

/** Body of `POST /store/customers/me/tw-saved-cards` (docs/saved-cards.md). */
export const StoreBindTwSavedCard = pluginSchema(bindCardBody)
export type StoreBindTwSavedCardType = z.output<typeof bindCardBody>
