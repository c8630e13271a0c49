import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelAtService } from "../../../subscriptions/cancel-at-service"

/** `PUT /subscriptions/{S number}`: cannot be undone, so it comes last. */
export const cancelAtServiceStep = createStep("cancel-tw-subscription-at-service", async ({ provider_key, hid, reason }: { provider_key: string; hid: string; reason?: string }, { container }) => {
  await cancelAtService(container, provider_key, hid, reason)
  return new StepResponse(undefined)
})
