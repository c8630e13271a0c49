import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { savedCardModule } from "../../../saved-cards/charge-rows"

/**
 * The token of a binding that succeeded, encrypted into its card's row
 * (`activateSavedCard`); the card becomes active. The token is this step's
 * input only: its output and its compensation's input hold none. Undone: the
 * card waits for its token again, with none stored.
 */
export const storeCardTokenStep = createStep(
  "store-tw-card-token",
  async ({ provider_key, card_id, token, last4 }: { provider_key: string; card_id: string; token: string; last4: string | null }, { container }) => {
    const card = await savedCardModule(container).activateSavedCard(card_id, { token, last4 })
    container.resolve(ContainerRegistrationKeys.LOGGER).info(`${provider_key}: card ${card_id} bound${last4 ? ` (•••• ${last4})` : ""}`)
    return new StepResponse({ card_id, last4: card.last4 ?? null, card_label: card.card_label ?? null }, card_id)
  },
  async (cardId, { container }) => {
    if (cardId) {
      await savedCardModule(container).updateTwSavedCards({
        id: cardId,
        status: "binding",
        token_ciphertext: null,
        token_key_id: null,
        last4: null,
        card_label: null,
        bound_at: null,
        failure_reason: null,
      })
    }
  }
)
