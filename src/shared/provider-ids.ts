/**
 * The provider identifiers and how a payment's provider id names one. Here
 * rather than in `providers/core` so that the admin bundle can tell this
 * plugin's payments apart without importing server code.
 */
export const PROVIDER_IDENTIFIERS = ["hosted-checkout", "embedded-card"] as const
export type ProviderIdentifier = (typeof PROVIDER_IDENTIFIERS)[number]

/** Whether a payment's or session's provider id belongs to one of this plugin's `identifier` providers. */
export const isProviderOf = (identifier: ProviderIdentifier, id: string) => id.startsWith(`pp_${identifier}_`)
