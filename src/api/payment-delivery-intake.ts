import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { parseNotification, type TokenNotification } from "../lib/hosted"
import { untrusted } from "../lib/log"
import { type PluginProvider, pluginProvider } from "../providers/plugin-providers"
import { bindTwCardWorkflow } from "../workflows/saved-cards/bind-tw-card"
import { isTokenNotification, tokenDelivery } from "../workflows/saved-cards/decisions/token-notification"
import { shareWithServer } from "./server-deliveries"

/**
 * Takes in this plugin's notifications and webhooks at core's own address
 * (`/hooks/payment/{identifier}_{id}`) and queues them as core's route would,
 * but with the provider's `deliveries` delay and attempts: core's route waits
 * a fixed 5 s with 3 attempts, as 2.21 ignores the payment module's
 * `webhook_delay` / `webhook_retries`. Other providers' deliveries go on to core.
 * A server process (worker mode `server`) also handles some itself: server-deliveries.ts.
 *
 * A hosted `token` notification is the exception: it carries a card token,
 * which must not sit in the event bus (Redis keeps queued and failed jobs), so
 * it is recorded here, encrypted, before the answer (the workflow `bind-tw-card`).
 */
export async function paymentDeliveryIntake(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const provider = pluginProvider(req.scope, req.params.provider)
  if (!provider) {
    return next()
  }
  if (provider.identifier === "hosted-checkout" && isTokenNotification(req.body)) {
    return takeTokenNotification(req, res, provider)
  }
  const data: ProviderWebhookPayload = {
    provider: provider.key,
    payload: { data: req.body as Record<string, unknown>, rawData: req.rawBody, headers: req.headers as Record<string, unknown> },
  }
  const queue = () =>
    req.scope.resolve(Modules.EVENT_BUS).emit(
      { name: PaymentWebhookEvents.WebhookReceived, data },
      { delay: provider.deliveries.delayMs, attempts: provider.deliveries.attempts }
    )
  await queue()
  res.sendStatus(200)
  shareWithServer(req.scope, provider, data.payload, queue)
}

/**
 * Records the binding (the workflow `bind-tw-card`: the token encrypted, the
 * account holder's mirror), then answers: 200 once it is recorded or
 * ignored, 500 when the store could not record it (the workflow undid its
 * steps and gave the claim back, so a resend is taken).
 */
async function takeTokenNotification(req: MedusaRequest, res: MedusaResponse, provider: PluginProvider) {
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  let notification: TokenNotification
  try {
    const parsed = parseNotification(req.rawBody?.length ? req.rawBody : req.body)
    if (parsed.purpose !== "token") {
      throw new Error(`not a token notification (${parsed.purpose})`)
    }
    notification = parsed
  } catch (error) {
    logger.warn(`${provider.key}: ignored a malformed token notification: ${untrusted((error as Error).message, 300)}`)
    res.sendStatus(200)
    return
  }
  try {
    await bindTwCardWorkflow(req.scope).run({ input: { provider_key: provider.key, delivery: tokenDelivery(notification), token: notification.token ?? null } })
  } catch (error) {
    // Only the error's class: a database error could quote the values it was writing.
    logger.error(`${provider.key}: a token notification could not be recorded (${(error as Error)?.name ?? "error"}); the service may send it again`)
    res.sendStatus(500)
    return
  }
  res.sendStatus(200)
}
