import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../../lib/log"
import { processTwSubscriptionWorkflow } from "../process-tw-subscription"

/**
 * After a checkout not yet known to be paid was released: its page may have
 * been paid already (a notification still on its way, or lost), which
 * started a subscription at the service. The sync reads the service, finds
 * that subscription and cancels it. Not undone and never failing the
 * cancellation: the reconciliation runs the same sync again.
 */
export const syncReleasedCheckoutStep = createStep("sync-released-tw-subscription-checkout", async (id: string, { container }) => {
  try {
    // .run(), not runAsStep: the sync takes the subscription's lock (a sub-workflow skips it), and its failure is logged, never failing the cancel
    await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: id } })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: subscription ${id} cancelled; the service is read again by the reconciliation: ${untrusted((error as Error).message, 300)}`)
  }
  return new StepResponse(undefined)
})
