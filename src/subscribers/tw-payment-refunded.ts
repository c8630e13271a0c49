import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { countPayment } from "../lib/metrics/payment-metrics"
import { providerId } from "../providers/core/provider-keys"
import { pluginProviders } from "../providers/plugin-providers"

/**
 * A payment was refunded (core's refund workflow, or the plugin's `refund-tw-late-payment`): one of this
 * plugin's payments counts as `refunded` in the `tw_payments` metric. Core's order cancel refunds without
 * this event, so those refunds show on the health page (Medusa's refund records) but not in the metric.
 */
export default async function twPaymentRefundedHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "payment", fields: ["provider_id"], filters: { id: event.data.id } })
  const provider = pluginProviders(container).find((p) => providerId(p.key) === data[0]?.provider_id)
  if (provider) {
    countPayment(provider.key, "refunded")
  }
}

export const config: SubscriberConfig = {
  event: "payment.refunded",
  context: { subscriberId: "medusa-payment-tw-payment-refunded" },
}
