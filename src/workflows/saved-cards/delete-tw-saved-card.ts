import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteSavedCardStep } from "./steps/delete-tw-saved-card"
import { type DeleteTwSavedCardInput, loadListedCardStep } from "./steps/load-listed-tw-saved-card"
import { mirrorSavedCardsStep } from "./steps/mirror-tw-saved-cards"

export type { DeleteTwSavedCardInput } from "./steps/load-listed-tw-saved-card"
export const deleteTwSavedCardWorkflowId = "delete-tw-saved-card"

/**
 * Deletes a listed card, by its customer or the merchant: an active card
 * leaves the account holder's mirror first (undone if the delete fails),
 * then the card is deleted and its token wiped, which cannot be undone.
 */
export const deleteTwSavedCardWorkflow = createWorkflow(deleteTwSavedCardWorkflowId, (input: DeleteTwSavedCardInput) => {
  const card = loadListedCardStep(input)
  when("tw-unmirror-deleted-card", { card }, ({ card }) => card.status === "active").then(() => {
    mirrorSavedCardsStep(transform({ card }, ({ card }) => ({ customer_id: card.customer_id, provider_id: card.provider_id, without_card_id: card.id })))
  })
  deleteSavedCardStep(card.id)
  return new WorkflowResponse({ id: card.id, object: "tw_saved_card" as const, deleted: true as const })
})
