import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { EmbeddedCardProviderService } from "./service"

export { EmbeddedCardProviderService }
export type { EmbeddedCardOptions } from "./options"

export default ModuleProvider(Modules.PAYMENT, {
  services: [EmbeddedCardProviderService],
})
