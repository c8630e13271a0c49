import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type ClaimLock, claimDelivery, releaseDeliveryClaim } from "../../../deliveries/delivery-claims"

/**
 * A token notification is taken once, like every delivery, whichever process
 * receives it and however often the service sends it (up to three times).
 * Undone: the claim is given back, so a resend is taken.
 */
export const claimTokenNotificationStep = createStep(
  "claim-tw-token-notification",
  async ({ provider_key, binding_id, card_id }: { provider_key: string; binding_id: string; card_id: string }, { container }) => {
    const claim = await claimDelivery(container, provider_key, `token:${binding_id}`)
    if (!claim) {
      container.resolve(ContainerRegistrationKeys.LOGGER).info(`${provider_key}: token notification for card ${card_id} skipped: a repeat, or handled by another process`)
      return new StepResponse<boolean, ClaimLock | null>(false, null)
    }
    return new StepResponse<boolean, ClaimLock | null>(true, claim.lock)
  },
  async (lock, { container }) => {
    if (lock) {
      await releaseDeliveryClaim(container, lock)
    }
  }
)
