import type { ProviderIdentifier } from "../../shared/provider-ids"

/**
 * Names Medusa derives from a provider's `identifier` and the `id` a store
 * gives it in `medusa-config.ts`: the key in webhook paths, the provider id in
 * the database. The one place the plugin spells them out.
 *
 * The identifiers and `isProviderOf` live in `src/shared`, where the admin bundle can import them too.
 */
export { PROVIDER_IDENTIFIERS, type ProviderIdentifier, isProviderOf } from "../../shared/provider-ids"

/** `{identifier}_{id}`, as in `/hooks/payment/{key}`. */
export const providerKey = (identifier: ProviderIdentifier, id: string) => `${identifier}_${id}`

/** `pp_{identifier}_{id}`, the payment provider id sessions and payments carry. */
export const providerId = (key: string) => `pp_${key}`

/** The address the service must notify: the store's URL plus this path. */
export const webhookPath = (key: string) => `/hooks/payment/${key}`
