import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_SAVED_CARD_MODULE } from "../../../modules/tw-saved-card"

/** The customer's link to a new card (`customer.tw_saved_cards` in Query). Undone: the link is dismissed. */
export const linkSavedCardCustomerStep = createStep(
  "link-tw-saved-card-customer",
  async ({ customer_id, saved_card_id }: { customer_id: string; saved_card_id: string }, { container }) => {
    const link = { [Modules.CUSTOMER]: { customer_id }, [TW_SAVED_CARD_MODULE]: { tw_saved_card_id: saved_card_id } }
    await container.resolve(ContainerRegistrationKeys.LINK).create(link)
    return new StepResponse(saved_card_id, link)
  },
  async (link, { container }) => {
    if (link) {
      await container.resolve(ContainerRegistrationKeys.LINK).dismiss(link)
    }
  }
)
