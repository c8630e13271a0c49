import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { handlePaymentDelivery } from "../deliveries/handle-payment-delivery"
import { handleSubscriptionDelivery } from "../deliveries/handle-subscription-delivery"
import { hostedApi } from "../providers/plugin-hosted-api"
import { pluginProvider } from "../providers/plugin-providers"
import { revivedPayload } from "../deliveries/revive-webhook-payload"

/**
 * The one subscriber of this plugin's deliveries (every notification and
 * webhook the intake queued): the payment it names goes through the payment
 * pipeline, then a hosted notification about a subscription through the
 * subscription's. A failure is rethrown, so the event bus retries it (Redis)
 * and the reconciliation jobs catch what is left; what was done is not done
 * twice (`handleDeliveryOnce`).
 */
export default async function twPaymentWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  const provider = pluginProvider(container, event.data.provider)
  if (!provider) {
    return
  }
  const payload = revivedPayload(event.data.payload)
  if (provider.identifier !== "hosted-checkout") {
    const { delivery, refusal } = provider.api.readDelivery(payload)
    await handlePaymentDelivery(container, provider, delivery, { refusal })
    return
  }
  // One parse of the body, for both branches (a malformed one is only counted as refused).
  const api = hostedApi(container, provider.key)
  const notification = api.readNotification(payload)
  const delivery = notification && api.deliveryOf(notification)
  await handlePaymentDelivery(container, provider, delivery, { refusal: api.refusalOf(notification) })
  if (notification) {
    await handleSubscriptionDelivery(container, provider, notification)
  }
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "medusa-payment-tw-webhook" },
}
