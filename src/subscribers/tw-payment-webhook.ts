import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { applyPaymentAction } from "../workflows"

/** Provider keys (`{identifier}_{id}`) of this plugin's providers. */
export const PLUGIN_PROVIDER = /^(hosted-checkout|embedded-card)_/

/**
 * Core's webhook subscriber acts only on `authorized` and `captured`. This one
 * handles what it ignores for this plugin's providers: failed payments and
 * codes issued for later payment.
 */
export default async function twPaymentWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  if (!PLUGIN_PROVIDER.test(event.data.provider)) {
    return
  }
  const paymentModule = container.resolve(Modules.PAYMENT)
  try {
    const result = await paymentModule.getWebhookActionAndData(event.data)
    await applyPaymentAction(container, result, { coreActions: false })
  } catch (error) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .error(`medusa-payment-tw: handling a ${event.data.provider} notification failed: ${(error as Error).message}`)
  }
}

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "medusa-payment-tw-webhook" },
}
