import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { BINDING_PAGE_MS } from "../../../modules/tw-saved-card/binding-state"
import { savedCardModule } from "../../../saved-cards/charge-rows"

/**
 * The card's row, `binding`, before the page: its id is the binding's
 * `customId`, and the row is how the `token` notification is recognised.
 * Undone: the row is deleted.
 */
export const createBindingCardStep = createStep(
  "create-tw-saved-card",
  async ({ customer_id, provider_id }: { customer_id: string; provider_id: string }, { container }) => {
    const card = await savedCardModule(container).createTwSavedCards({ customer_id, provider_id, status: "binding", binding_expires_at: new Date(Date.now() + BINDING_PAGE_MS) })
    return new StepResponse(card.id, card.id)
  },
  async (cardId, { container }) => {
    if (cardId) {
      await savedCardModule(container).deleteTwSavedCards(cardId)
    }
  }
)
