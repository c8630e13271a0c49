import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { HostedCheckoutApi } from "./hosted-checkout/public"
import { pluginProvider } from "./plugin-providers"

/** The hosted-checkout API of one of this plugin's providers, as the store configured it. */
export function hostedApi(container: MedusaContainer, providerKey: string): HostedCheckoutApi {
  const api = pluginProvider(container, providerKey)?.api
  if (!(api instanceof HostedCheckoutApi)) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `No medusa-payment-tw hosted-checkout provider "${providerKey}" is registered in the payment module.`)
  }
  return api
}
