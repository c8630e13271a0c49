import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelAtService } from "../../../subscriptions/cancel-at-service"
import { settlePeriod } from "../../../subscriptions/settle-period"

export interface EndAtServiceInput {
  subscriptionId: string
  providerKey: string
  hid: string | null
  /** Without an S number: the service's subscriptions that can only be ended checkouts' (`ServiceRead.strays`). */
  strays: string[]
  reason: string | null
}

/** The store ended the subscription but the service's still charges: cancelled there. The service cannot undo a cancel; nothing to compensate. */
export const endTwSubscriptionAtServiceStep = createStep("end-tw-subscription-at-service", async ({ subscriptionId, providerKey, hid, strays, reason }: EndAtServiceInput, { container }) => {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const failed = await settlePeriod(container, subscriptionId, 1, async () => {
    for (const target of hid ? [hid] : strays) {
      await cancelAtService(container, providerKey, target, reason ?? undefined)
      logger.warn(
        hid
          ? `medusa-payment-tw: cancelled subscription ${target} at the service: ${subscriptionId} had ended in the store`
          : `medusa-payment-tw: cancelled subscription ${target} at the service: it belongs to one of several ended checkouts, ${subscriptionId} among them, and no notification said which`
      )
    }
  })
  return new StepResponse({ failed })
})
