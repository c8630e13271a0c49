import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { setTimeout as sleep } from "node:timers/promises"
import { signPayload } from "../lib/embedded"
import { parseEmbeddedCardOptions, type ResolvedEmbeddedCardOptions } from "../providers/embedded-card/options"
import type { EmbeddedSessionData } from "../providers/embedded-card/session-data"
import { applyPaymentAction } from "../workflows"

/** Intents left in `processing` settle within about 20 minutes; a day covers any delay. */
const MAX_AGE_MS = 24 * 3_600_000

interface EmbeddedProvider {
  key: string
  options: ResolvedEmbeddedCardOptions
}

export function embeddedProviders(container: MedusaContainer): EmbeddedProvider[] {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const payment = config.modules?.payment as { options?: { providers?: Array<{ resolve?: unknown; id: string; options?: unknown }> } } | undefined
  return (payment?.options?.providers ?? [])
    .filter((p) => typeof p.resolve === "string" && /providers\/embedded-card\/?$/.test(p.resolve))
    .map((p) => ({ key: `embedded-card_${p.id}`, options: parseEmbeddedCardOptions(p.options) }))
}

/**
 * Re-reads the sessions whose payment intent was left `processing` (orders
 * placed with payment awaiting) and applies what a webhook would have. The
 * hint is signed with the store's own webhook secret and goes through the
 * provider's webhook path, so verification, the fresh read of the intent and
 * the workflows are exactly those of a delivered `payment_intent.*` event.
 */
export default async function reconcileEmbeddedCard(container: MedusaContainer) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const now = Date.now()

  for (const provider of embeddedProviders(container)) {
    const { enabled, maxPerRun, requestsPerSecond } = provider.options.reconciliation
    const [secret] = provider.options.webhookSecrets
    if (!enabled) {
      continue
    }
    if (!secret) {
      logger.warn(`medusa-payment-tw: ${provider.key} has no webhook secret; processing intents cannot be reconciled`)
      continue
    }
    const { data: sessions } = await query.graph({
      entity: "payment_session",
      fields: ["id", "data"],
      filters: { provider_id: `pp_${provider.key}`, status: ["pending_authorization"], created_at: { $gte: new Date(now - MAX_AGE_MS) } },
      pagination: { take: maxPerRun, order: { created_at: "DESC" } },
    })
    for (const [index, session] of sessions.entries()) {
      if (index > 0) {
        await sleep(1000 / requestsPerSecond)
      }
      const data = session.data as unknown as EmbeddedSessionData
      const hint = Buffer.from(
        JSON.stringify({
          // A fresh id each run: the provider answers a repeated event id from memory.
          id: `evt_reconcile_${randomUUID().replace(/-/g, "")}`,
          type: "payment_intent.created",
          api_version: "reconciliation",
          created: Math.floor(now / 1000),
          // Only the id matters: the provider reads the intent again.
          data: {
            id: data.paymentIntentId,
            status: data.status ?? "processing",
            amount: data.amount,
            currency: "TWD",
            orderId: session.id,
            returnUrl: data.returnUrl,
            metadata: { session_id: session.id },
            amountRefundable: 0,
            created: Math.floor(now / 1000),
          },
        })
      )
      try {
        const result = await paymentModule.getWebhookActionAndData({
          provider: provider.key,
          payload: { data: JSON.parse(hint.toString()), rawData: hint, headers: { "svc-signature": signPayload(hint, secret) } },
        })
        await applyPaymentAction(container, result, { coreActions: true })
      } catch (error) {
        logger.warn(`medusa-payment-tw: reconciling session ${session.id} failed: ${(error as Error).message}`)
      }
    }
    if (sessions.length) {
      logger.info(`medusa-payment-tw: reconciled ${sessions.length} processing ${provider.key} session(s)`)
    }
  }
}

export const config = {
  name: "medusa-payment-tw-reconcile-embedded-card",
  schedule: "*/5 * * * *",
}
