import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { LISTED_SAVED_CARD_STATUSES } from "../../../shared/statuses"
import { savedCardModule } from "../../../saved-cards/charge-rows"

export interface DeleteTwSavedCardInput {
  id: string
  /** The logged-in customer, for the store route: another customer's card is "not found". The admin route gives none. */
  customer_id?: string
}

/** A card the lists show (of this customer when one is given); anything else is "not found", so ids do not leak. */
export const loadListedCardStep = createStep("load-listed-tw-saved-card", async ({ id, customer_id }: DeleteTwSavedCardInput, { container }) => {
  const [row] = await savedCardModule(container).listTwSavedCards(
    { id, status: [...LISTED_SAVED_CARD_STATUSES], ...(customer_id ? { customer_id } : {}) },
    { take: 1, select: ["id", "customer_id", "provider_id", "status"] }
  )
  if (!row) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Saved card ${id} was not found.`)
  }
  return new StepResponse({ id: row.id, customer_id: row.customer_id, provider_id: row.provider_id, status: row.status })
})
