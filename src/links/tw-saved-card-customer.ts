import { defineLink } from "@medusajs/framework/utils"
import CustomerModule from "@medusajs/medusa/customer"
import TwSavedCardModule from "../modules/tw-saved-card"

/** A customer's saved cards (`customer.tw_saved_cards` in Query). */
export default defineLink(CustomerModule.linkable.customer, { linkable: TwSavedCardModule.linkable.twSavedCard, isList: true })
