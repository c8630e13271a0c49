import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { PaymentWebhookEvents } from "@medusajs/framework/utils"
import { handlePaymentDelivery } from "../workflows/handle-payment-delivery"
import { pluginProvider } from "../workflows/plugin-providers"

/**
 * Every notification and webhook of this plugin's providers that the intake
 * queued. A failure is rethrown, so the event bus retries it (Redis) and the
 * reconciliation job catches what is left.
 */
export default async function twPaymentWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  const provider = pluginProvider(container, event.data.provider)
  if (!provider) {
    return
  }
  const payload = event.data.payload
  // The Redis event bus serialises the raw body as `{ type: "Buffer", data }`.
  const raw = payload.rawData as unknown as { type?: string; data?: number[] } | undefined
  if (raw?.type === "Buffer" && Array.isArray(raw.data)) {
    payload.rawData = Buffer.from(raw.data)
  }
  await handlePaymentDelivery(container, provider, payload)
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "medusa-payment-tw-webhook" },
}
