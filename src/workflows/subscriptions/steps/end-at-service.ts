import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelAtService } from "../cancel-at-service"
import { settlePeriod } from "./settle-period"

export interface EndAtServiceInput {
  subscriptionId: string
  providerKey: string
  hid: string | null
  reason: string | null
}

/** The store ended the subscription but the service's still charges: cancelled there. The service cannot undo a cancel; nothing to compensate. */
export const endTwSubscriptionAtServiceStep = createStep("end-tw-subscription-at-service", async ({ subscriptionId, providerKey, hid, reason }: EndAtServiceInput, { container }) => {
  if (!hid) {
    return new StepResponse({ failed: [] as number[] })
  }
  const failed = await settlePeriod(container, subscriptionId, 1, async () => {
    await cancelAtService(container, providerKey, hid, reason ?? undefined)
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: cancelled subscription ${hid} at the service: ${subscriptionId} had ended in the store`)
  })
  return new StepResponse({ failed })
})
