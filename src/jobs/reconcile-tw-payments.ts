import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { untrusted } from "../lib/log"
import { providerId } from "../providers/core/provider-keys"
import { processTwPaymentWorkflow } from "../workflows"
import { pluginProviders } from "../workflows/plugin-providers"

/** Sessions older than this are never read again (no code or intent lives this long). */
const MAX_AGE_MS = 14 * 24 * 3_600_000
const UNSETTLED = ["pending", "requires_more", "pending_authorization"]

/**
 * Catches what deliveries did not: the service notifies 3 times and never
 * again, webhooks can be lost, and a completion can fail under load. Every
 * unsettled session of this plugin's providers that could still change (or
 * is paid and waits for its order) runs through the same workflow as a
 * delivery, at a bounded request rate. Scheduled jobs run in worker
 * processes, once per tick across the cluster under the Redis workflow engine.
 */
export default async function reconcileTwPayments(
  container: MedusaContainer,
  /** `force`: also for providers whose scheduled reconciliation is off (an operator's one-off run, tests). */
  { force = false }: { force?: boolean } = {}
) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const now = Date.now()

  for (const { key, api, reconciliation } of pluginProviders(container)) {
    if (!reconciliation.enabled && !force) {
      continue
    }
    const { data: sessions } = await query.graph({
      entity: "payment_session",
      fields: ["id", "status", "data", "created_at"],
      filters: { provider_id: providerId(key), status: UNSETTLED, created_at: { $gte: new Date(now - MAX_AGE_MS) } },
      pagination: { take: reconciliation.maxPerRun * 4, order: { created_at: "DESC" } },
    })
    const open = sessions
      .filter((s) => api.reconcilable({ status: s.status, data: (s.data ?? {}) as Record<string, unknown>, createdAt: new Date(s.created_at) }, now))
      .slice(0, reconciliation.maxPerRun)

    let settled = 0
    for (const [index, session] of open.entries()) {
      if (index > 0) {
        await sleep(1000 / reconciliation.requestsPerSecond)
      }
      const serviceId = String((session.data as Record<string, unknown>)[api.idField])
      try {
        const { result } = await processTwPaymentWorkflow(container).run({ input: { provider: key, serviceId } })
        settled += result.decision.kind === "ignore" ? 0 : 1
      } catch (error) {
        logger.warn(`medusa-payment-tw: reconciling session ${session.id} failed: ${untrusted((error as Error).message, 300)}`)
      }
    }
    if (open.length) {
      logger.info(`medusa-payment-tw: reconciled ${open.length} open ${key} session(s), ${settled} with news`)
    }
  }
}

export const config = {
  name: "medusa-payment-tw-reconcile",
  schedule: "* * * * *",
}
