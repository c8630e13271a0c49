import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { type Delivery, statusKey } from "../providers/core/payment-api"
import { type DeliveryOutcome, handleDeliveryOnce } from "./delivery-claims"
import { leftToSubscription } from "./left-to-subscription"
import type { PluginProvider } from "../providers/plugin-providers"
import { processTwPaymentWorkflow } from "../workflows/payments/process-tw-payment"

/**
 * One notification or webhook of a plugin provider, handled once: verified
 * and parsed by the provider's API (by the caller), a subscription's later period left to
 * `handleSubscriptionDelivery` unread, then run through the `process-tw-payment`
 * workflow unless the same delivery is already done (`handleDeliveryOnce`).
 * Copies about one payment (the event bus's, repeats, forgeries) take turns;
 * the server's own copy (`server-deliveries.ts`, `queuedElsewhere`) does not
 * wait its turn but leaves a busy payment to the queued copy. What counts as done
 * is what the workflow's fresh read verified: a signed event's id, or an
 * unsigned notification's transaction in the status the read returned, so a
 * forged notification can never mark the real one as a repeat, and the
 * bodies naming one id cost at most one read per delivery delay. A failure
 * marks nothing and is rethrown, so the caller can have it tried again.
 */
export async function handlePaymentDelivery(
  container: MedusaContainer,
  provider: PluginProvider,
  delivery: Delivery | undefined,
  { queuedElsewhere = false }: { queuedElsewhere?: boolean } = {}
): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  if (!delivery) {
    return
  }
  if (await leftToSubscription(container, delivery)) {
    // Not claimed: `handleSubscriptionDelivery` handles it, on its own reads.
    logger.debug(`${provider.key}: delivery ${untrusted(delivery.key)} is a later period of a subscription: left to the subscription workflow`)
    return
  }
  const handle = async (): Promise<string[]> => {
    const { result } = await processTwPaymentWorkflow(container).run({
      input: { provider: provider.key, serviceId: delivery.serviceId, refundId: delivery.refundId },
    })
    if (delivery.signed) {
      return [delivery.key]
    }
    return result.status ? [statusKey(delivery.serviceId, result.status)] : []
  }
  let outcome: DeliveryOutcome
  try {
    outcome = await handleDeliveryOnce(container, {
      provider: provider.key,
      scope: delivery.serviceId,
      key: delivery.key,
      handle,
      queuedElsewhere,
      delayMs: provider.deliveries.delayMs,
      signed: delivery.signed,
    })
  } catch (error) {
    logger.warn(`${provider.key}: delivery ${untrusted(delivery.key)} not handled yet: ${untrusted((error as Error).message, 300)}`)
    throw error
  }
  if (outcome === "repeat") {
    logger.info(`${provider.key}: delivery ${untrusted(delivery.key)} skipped: a repeat, or handled by another process`)
  } else if (outcome === "covered") {
    logger.info(`${provider.key}: delivery ${untrusted(delivery.key)} skipped: a read of ${untrusted(delivery.serviceId)} made after it arrived already acted on it`)
  } else if (outcome === "busy") {
    logger.info(`${provider.key}: delivery ${untrusted(delivery.key)} skipped: a repeat, or handled by another process (busy with this payment: the queued copy checks again)`)
  }
}
