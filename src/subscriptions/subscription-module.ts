import type { MedusaContainer } from "@medusajs/framework/types"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"

export const subscriptionModule = (container: MedusaContainer) => container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
