import type { MedusaContainer, ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { claimDelivery } from "./delivery-claims"
import { leftToSubscription } from "./left-to-subscription"
import type { PluginProvider } from "./plugin-providers"
import { processTwPaymentWorkflow } from "./process-tw-payment"

/**
 * One notification or webhook of a plugin provider, handled once: verified
 * and parsed by the provider's API, a subscription's later period left to
 * `tw-subscription-webhook` unread, claimed so a repeat or a concurrent copy
 * (the event bus's, or the server's own: `server-deliveries.ts`) is dropped,
 * then run through the `process-tw-payment` workflow. A failure gives the
 * claim back and is rethrown, so the caller can have it tried again.
 */
export async function handlePaymentDelivery(
  container: MedusaContainer,
  provider: PluginProvider,
  payload: ProviderWebhookPayload["payload"]
): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const delivery = provider.api.parseDelivery(payload)
  if (!delivery) {
    return
  }
  if (await leftToSubscription(container, delivery)) {
    // Not claimed: the subscription subscriber handles it, on its own reads.
    logger.debug(`${provider.key}: delivery ${untrusted(delivery.key)} is a later period of a subscription: left to the subscription workflow`)
    return
  }
  const claim = await claimDelivery(container, provider.key, delivery.key)
  if (!claim) {
    logger.info(`${provider.key}: delivery ${untrusted(delivery.key)} skipped: a repeat, or handled by another process`)
    return
  }
  try {
    await processTwPaymentWorkflow(container).run({
      input: { provider: provider.key, serviceId: delivery.serviceId, refundId: delivery.refundId },
    })
  } catch (error) {
    await claim.release()
    logger.warn(`${provider.key}: delivery ${untrusted(delivery.key)} not handled yet: ${untrusted((error as Error).message, 300)}`)
    throw error
  }
}
