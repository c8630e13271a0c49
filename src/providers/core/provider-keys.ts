/**
 * Names Medusa derives from a provider's `identifier` and the `id` a store
 * gives it in `medusa-config.ts`: the key in webhook paths, the provider id in
 * the database. The one place the plugin spells them out.
 */
export const PROVIDER_IDENTIFIERS = ["hosted-checkout", "embedded-card"] as const
export type ProviderIdentifier = (typeof PROVIDER_IDENTIFIERS)[number]

/** `{identifier}_{id}`, as in `/hooks/payment/{key}`. */
export const providerKey = (identifier: ProviderIdentifier, id: string) => `${identifier}_${id}`

/** `pp_{identifier}_{id}`, the payment provider id sessions and payments carry. */
export const providerId = (key: string) => `pp_${key}`

/** The address the service must notify: the store's URL plus this path. */
export const webhookPath = (key: string) => `/hooks/payment/${key}`

/** Whether a payment's or session's provider id belongs to one of this plugin's `identifier` providers. */
export const isProviderOf = (identifier: ProviderIdentifier, id: string) => id.startsWith(`pp_${identifier}_`)
