import { defineLink } from "@medusajs/framework/utils"
import ProductModule from "@medusajs/medusa/product"
import TwSubscriptionModule from "../modules/tw-subscription"

/** The plans a product variant is offered with. */
export default defineLink(ProductModule.linkable.productVariant, { linkable: TwSubscriptionModule.linkable.twSubscriptionPlan, isList: true })
