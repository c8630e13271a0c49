import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { processTwPaymentWorkflow } from "../workflows"
import { claimDelivery } from "../workflows/delivery-claims"
import { leftToSubscription } from "../workflows/left-to-subscription"
import { pluginProvider } from "../workflows/plugin-providers"

/**
 * Every notification and webhook of this plugin's providers, handled once:
 * verified and parsed by the provider's API, a subscription's later period
 * left to `tw-subscription-webhook` unread, claimed so a repeat or a
 * concurrent copy is dropped, then run through the `process-tw-payment`
 * workflow. A failure gives the claim back and is rethrown, so the event bus
 * retries it (Redis) and the reconciliation job catches what is left.
 */
export default async function twPaymentWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  const provider = pluginProvider(container, event.data.provider)
  if (!provider) {
    return
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const payload = event.data.payload
  // The Redis event bus serialises the raw body as `{ type: "Buffer", data }`.
  const raw = payload.rawData as unknown as { type?: string; data?: number[] } | undefined
  if (raw?.type === "Buffer" && Array.isArray(raw.data)) {
    payload.rawData = Buffer.from(raw.data)
  }
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

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "medusa-payment-tw-webhook" },
}
