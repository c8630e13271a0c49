import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { pluginProvider } from "../workflows/plugin-providers"

/**
 * Takes in this plugin's notifications and webhooks at core's own address
 * (`/hooks/payment/{identifier}_{id}`) and queues them as core's route would,
 * but with the provider's `deliveries` delay and attempts: core's route waits
 * a fixed 5 s with 3 attempts, as 2.21 ignores the payment module's
 * `webhook_delay` / `webhook_retries`. Other providers' deliveries go on to core.
 */
export async function paymentDeliveryIntake(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const provider = pluginProvider(req.scope, req.params.provider)
  if (!provider) {
    return next()
  }
  const data: ProviderWebhookPayload = {
    provider: provider.key,
    payload: { data: req.body as Record<string, unknown>, rawData: req.rawBody, headers: req.headers as Record<string, unknown> },
  }
  await req.scope.resolve(Modules.EVENT_BUS).emit(
    { name: PaymentWebhookEvents.WebhookReceived, data },
    { delay: provider.deliveries.delayMs, attempts: provider.deliveries.attempts }
  )
  res.sendStatus(200)
}
