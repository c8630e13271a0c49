import { defineLink } from "@medusajs/framework/utils"
import OrderModule from "@medusajs/medusa/order"
import TwSubscriptionModule from "../modules/tw-subscription"

/** The first order and every renewal order of a subscription. */
export default defineLink(TwSubscriptionModule.linkable.twSubscription, { linkable: OrderModule.linkable.order, isList: true })
