import type { SandboxCore } from "../context"
import type { ControlRouter } from "../control/routes"
import type { Holds } from "../holds"
import type { Mount } from "../server"
import { createEmbeddedApi } from "./api"
import { CardTokens } from "./card-tokens"
import { type EmbeddedContext, type EmbeddedOptions } from "./context"
import { addEmbeddedControlRoutes } from "./control-routes"
import { WebhookDeliveries } from "./deliveries"
import { Events } from "./events"
import { IdempotencyStore } from "./idempotency"
import { PaymentIntents } from "./intents"
import { EmbeddedAccounts } from "./keys"
import { RateLimiter } from "./rate-limits"
import { Refunds } from "./refunds"
import { createSdkMount, SDK_FLOATING_PATH, SDK_INTEGRITY, SDK_PINNED_PATH } from "./sdk"
import { intentView, refundView } from "./views"
import { WebhookEndpoints } from "./webhooks"

export { DEFAULT_THREE_DS_PAGE_TIMEOUT_MS, DEFAULT_WEBHOOK_TIMEOUT_MS } from "./context"
export { DEFAULT_PUBLISHABLE_KEY, DEFAULT_SECRET_KEY } from "./keys"
export { SDK_FLOATING_PATH, SDK_INTEGRITY, SDK_PINNED_PATH } from "./sdk"

/** Wires the embedded-card emulation into the shared core: `/v1`, `/sdk`, jobs, control routes. */
export function mountEmbedded(
  core: SandboxCore,
  control: ControlRouter,
  holds: Holds,
  options: EmbeddedOptions & { defaultMerchantId: string }
): { mounts: Mount[]; endpoints: string[]; accounts: EmbeddedAccounts; close: () => Promise<void> } {
  const nowMs = () => core.clock.nowMs()
  const accounts = new EmbeddedAccounts(nowMs, options.defaultMerchantId)
  const webhooks = new WebhookEndpoints(nowMs)
  const deliveries = new WebhookDeliveries(core, webhooks, options.webhookTimeoutMs)
  const events = new Events(nowMs, webhooks, deliveries)
  const intents = new PaymentIntents(core)
  const refunds = new Refunds(core)
  const ctx: EmbeddedContext = {
    core,
    accounts,
    intents,
    refunds,
    tokens: new CardTokens(nowMs),
    webhooks,
    events,
    deliveries,
    idempotency: new IdempotencyStore(nowMs),
    limiter: new RateLimiter(nowMs),
    options,
  }
  for (const part of [accounts, webhooks, deliveries, events, intents, refunds, ctx.tokens, ctx.idempotency, ctx.limiter]) {
    core.store.register(part)
  }
  // Webhook data is the resource at event time, without the client secret.
  intents.publish = (type, intent) => events.emit(intent.merchantId, type, intentView(intent, refunds.amountRefundable(intent)))
  refunds.publish = (type, refund) => events.emit(refund.merchantId, type, refundView(refund))
  const api = createEmbeddedApi(ctx, holds)
  addEmbeddedControlRoutes(control, ctx)
  return { mounts: [api.mount, createSdkMount(ctx)], endpoints: api.endpoints, accounts, close: () => deliveries.close() }
}

/** Where the embedded parts live relative to the sandbox URL. */
export function embeddedAddresses(url: string) {
  return { baseUrl: url, sdkUrl: `${url}${SDK_PINNED_PATH}`, sdkFloatingUrl: `${url}${SDK_FLOATING_PATH}`, sdkIntegrity: SDK_INTEGRITY }
}
