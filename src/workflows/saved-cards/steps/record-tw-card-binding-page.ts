import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { savedCardModule } from "../../../saved-cards/charge-rows"

/** The card learns its binding's id (the notification names it) and the page's end. Undone: neither is recorded. */
export const recordBindingPageStep = createStep(
  "record-tw-card-binding-page",
  async ({ saved_card_id, binding_id, expires_at }: { saved_card_id: string; binding_id: string; expires_at: string }, { container }) => {
    const module = savedCardModule(container)
    const before = await module.retrieveTwSavedCard(saved_card_id, { select: ["id", "binding_id", "binding_expires_at"] })
    const card = await module.updateTwSavedCards({ id: saved_card_id, binding_id, binding_expires_at: new Date(expires_at) })
    return new StepResponse(card, { id: saved_card_id, binding_id: before.binding_id ?? null, binding_expires_at: new Date(before.binding_expires_at).toISOString() })
  },
  async (previous, { container }) => {
    if (previous) {
      await savedCardModule(container).updateTwSavedCards({ ...previous, binding_expires_at: new Date(previous.binding_expires_at) })
    }
  }
)
