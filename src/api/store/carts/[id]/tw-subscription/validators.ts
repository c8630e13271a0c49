import { z } from "zod"
import { invoiceInfoSchema } from "../../../../../lib/hosted"
import { storefrontPath } from "../../../../../providers/core/options"
import { pluginSchema } from "../../../../plugin-schema"

/** The plugin schema itself, for `validatePluginBody`. */
export const checkoutBody = z.strictObject({
  plan_id: z.string().startsWith("twplan_", "must be a plan id (twplan_…)"),
  provider_id: z.string().startsWith("pp_hosted-checkout_", "must be a hosted-checkout provider id").optional(),
  return_path: storefrontPath.optional(),
  /** The shopper's e-invoice choice, as for a one-time hosted payment (docs/providers.md). */
  invoice: invoiceInfoSchema.optional(),
  /** Subscribe with this saved card of the customer's (docs/saved-cards.md): no page, charged when the cart is completed. */
  saved_card_id: z.string().startsWith("twcard_", "must be a saved card id (twcard_…)").max(100).optional(),
})

/** Body of `POST /store/carts/:id/tw-subscription` (docs/subscriptions.md). */
export const StoreStartTwSubscriptionCheckout = pluginSchema(checkoutBody)
export type StoreStartTwSubscriptionCheckoutType = z.output<typeof checkoutBody>
