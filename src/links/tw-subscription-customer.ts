import { defineLink } from "@medusajs/framework/utils"
import CustomerModule from "@medusajs/medusa/customer"
import TwSubscriptionModule from "../modules/tw-subscription"

/** A customer's subscriptions (`customer.tw_subscriptions` in Query). */
export default defineLink(CustomerModule.linkable.customer, { linkable: TwSubscriptionModule.linkable.twSubscription, isList: true })
