import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { HostedCheckoutProviderService } from "./service"

export { HostedCheckoutProviderService }
export type { HostedCheckoutOptions } from "./options"

export default ModuleProvider(Modules.PAYMENT, {
  services: [HostedCheckoutProviderService],
})
