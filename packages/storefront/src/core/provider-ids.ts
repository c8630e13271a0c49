/**
 * Medusa names a payment provider `pp_{identifier}_{id}`, `id` being what the
 * store gave it in medusa-config.ts. These defaults are the ids of a store
 * that registers each provider with its identifier as id, as the plugin's
 * README does; every function that starts a payment takes another `providerId`.
 */
export const HOSTED_CHECKOUT_PROVIDER_ID = "pp_hosted-checkout_hosted-checkout"
export const EMBEDDED_CARD_PROVIDER_ID = "pp_embedded-card_embedded-card"

export const isHostedCheckoutProvider = (providerId: string): boolean => providerId.startsWith("pp_hosted-checkout_")
export const isEmbeddedCardProvider = (providerId: string): boolean => providerId.startsWith("pp_embedded-card_")

/** Either provider of the plugin: a region offering one gets the kit's payment step. */
export const isTwPaymentProvider = (providerId: string): boolean => isHostedCheckoutProvider(providerId) || isEmbeddedCardProvider(providerId)
