import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { untrusted } from "../lib/log"
import { type Delivery, type DeliveryRefusal, statusKey } from "../providers/core/payment-api"
import { type DeliveryOutcome, handleDeliveryOnce } from "./delivery-claims"
import { leftToSubscription } from "./left-to-subscription"
import type { PluginProvider } from "../providers/plugin-providers"
import { processTwPaymentWorkflow } from "../workflows/payments/process-tw-payment"
import { recordTwDeliveryVerdictsWorkflow } from "../workflows/health/record-tw-delivery-verdicts"
import type { DeliveryKind, DeliveryVerdict } from "../shared/health-views"

/**
 * One notification or webhook of a plugin provider, handled once: verified
 * and parsed once by the caller through the provider's API (`readDelivery`;
 * undefined with its `refusal` when refused), a subscription's later period left to
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
 * What became of it (accepted, verified or forged by its read, refused) is
 * counted for the health page and the metrics, by the `process-tw-payment` run
 * that handles it, or else by `record-tw-delivery-verdicts`.
 */
export async function handlePaymentDelivery(
  container: MedusaContainer,
  provider: PluginProvider,
  delivery: Delivery | undefined,
  options: { queuedElsewhere?: boolean; refusal?: DeliveryRefusal } = {}
): Promise<void> {
  const verdicts: DeliveryVerdict[] = []
  try {
    await handleDelivery(container, provider, delivery, options, verdicts)
  } finally {
    await recordVerdicts(container, provider, verdicts)
  }
}

async function handleDelivery(
  container: MedusaContainer,
  provider: PluginProvider,
  delivery: Delivery | undefined,
  { queuedElsewhere = false, refusal }: { queuedElsewhere?: boolean; refusal?: DeliveryRefusal },
  verdicts: DeliveryVerdict[]
): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  // The queued copy counts what came in; a server's own copy of it (`queuedElsewhere`) only what its run verified.
  const taken = (verdict: DeliveryVerdict) => queuedElsewhere || verdicts.push(verdict)
  if (!delivery) {
    if (refusal) {
      taken(refusal)
    }
    return
  }
  taken("accepted")
  if (await leftToSubscription(container, delivery)) {
    // Not claimed: `handleSubscriptionDelivery` handles it, on its own reads.
    logger.debug(`${provider.key}: delivery ${untrusted(delivery.key)} is a later period of a subscription: left to the subscription workflow`)
    return
  }
  const handle = async (): Promise<string[]> => {
    const { result } = await processTwPaymentWorkflow(container).run({
      input: { provider: provider.key, serviceId: delivery.serviceId, refundId: delivery.refundId, via: "delivery", delivery: { kind: deliveryKind(provider), verdicts: [...verdicts] } },
    })
    // The run counted them, with what its read found.
    verdicts.length = 0
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

const deliveryKind = (provider: PluginProvider): DeliveryKind => (provider.identifier === "embedded-card" ? "webhook" : "notification")

/**
 * Counts the verdicts of a delivery that `process-tw-payment` did not count (refused, a repeat, left to a
 * subscription, or its run failed); a failure to count is logged, never the delivery's failure.
 */
async function recordVerdicts(container: MedusaContainer, provider: PluginProvider, verdicts: DeliveryVerdict[]) {
  if (!verdicts.length) {
    return
  }
  await recordTwDeliveryVerdictsWorkflow(container)
    .run({ input: { provider: provider.key, kind: deliveryKind(provider), verdicts } })
    .catch((error: Error) => container.resolve(ContainerRegistrationKeys.LOGGER).warn(`${provider.key}: counting a delivery failed: ${untrusted(error.message, 300)}`))
}
