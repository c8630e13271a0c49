import type { ConfigModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { PaymentApi } from "./core/payment-api"
import { type ProviderIdentifier, providerKey } from "./core/provider-keys"
import { EmbeddedCardApi } from "./embedded-card/embedded-card-api"
import { parseEmbeddedCardOptions } from "./embedded-card/options"
import { HostedCheckoutApi, parseHostedCheckoutOptions } from "./hosted-checkout/public"

/** One of this plugin's providers as registered in the store's payment module. */
export interface PluginProvider {
  /** `{identifier}_{id}`, as in webhook paths. */
  key: string
  identifier: ProviderIdentifier
  api: PaymentApi
  reconciliation: { enabled: boolean; maxPerRun: number; requestsPerSecond: number }
  deliveries: { delayMs: number; attempts: number; serverConcurrency: number }
}

type ProviderEntry = { resolve?: unknown; id: string; options?: unknown }

/** The API clients keep connection pools: one set per configuration, for the life of the process. */
const cache = new WeakMap<ConfigModule, PluginProvider[]>()

/**
 * This plugin's providers, built from the store's own configuration (the same
 * options the payment module gave them), so the pipeline can read the service
 * without reaching into the payment module.
 */
export function pluginProviders(container: MedusaContainer): PluginProvider[] {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  let providers = cache.get(config)
  if (!providers) {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    const payment = config.modules?.payment as { options?: { providers?: ProviderEntry[] } } | undefined
    providers = (payment?.options?.providers ?? []).flatMap((entry) => build(entry, logger))
    cache.set(config, providers)
  }
  return providers
}

export function pluginProvider(container: MedusaContainer, key: string): PluginProvider | undefined {
  return pluginProviders(container).find((provider) => provider.key === key)
}

function build(entry: ProviderEntry, logger: Logger): PluginProvider[] {
  const resolve = typeof entry.resolve === "string" ? entry.resolve : ""
  if (/providers\/hosted-checkout\/?$/.test(resolve)) {
    const options = parseHostedCheckoutOptions(entry.options)
    return [plugin("hosted-checkout", entry.id, new HostedCheckoutApi(options, logger), options)]
  }
  if (/providers\/embedded-card\/?$/.test(resolve)) {
    const options = parseEmbeddedCardOptions(entry.options)
    return [plugin("embedded-card", entry.id, new EmbeddedCardApi(options, logger), options)]
  }
  return []
}

function plugin(
  identifier: ProviderIdentifier,
  id: string,
  api: PaymentApi,
  { reconciliation, deliveries }: Pick<PluginProvider, "reconciliation" | "deliveries">
): PluginProvider {
  return { key: providerKey(identifier, id), identifier, api, reconciliation, deliveries }
}
