import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { type PluginProvider, pluginProvider } from "../providers/plugin-providers"

/** The provider a sweep step works for; its API clients cannot travel between steps, so each step looks it up. */
export function sweepProvider(container: MedusaContainer, key: string): PluginProvider {
  const found = pluginProvider(container, key)
  if (!found) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No medusa-payment-tw provider "${key}" is registered in the payment module.`)
  }
  return found
}
