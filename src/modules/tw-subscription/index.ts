import { Module } from "@medusajs/framework/utils"
import TwSubscriptionModuleService from "./service"

/** Container key and link-table prefix of the subscriptions module. */
export const TW_SUBSCRIPTION_MODULE = "tw_subscription"

export default Module(TW_SUBSCRIPTION_MODULE, { service: TwSubscriptionModuleService })
export { TwSubscriptionModuleService }
