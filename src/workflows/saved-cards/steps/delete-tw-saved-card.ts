import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { savedCardModule } from "../../../saved-cards/charge-rows"

/**
 * The card is `deleted` and its token wiped; the row stays for the charges
 * that name it. Last in its workflow and not undone: a wiped token cannot be
 * put back, and nothing after it can fail.
 */
export const deleteSavedCardStep = createStep("delete-tw-saved-card", async (id: string, { container }) => {
  await savedCardModule(container).deleteSavedCard(id)
  return new StepResponse(id)
})
