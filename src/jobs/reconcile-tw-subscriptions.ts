import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { untrusted } from "../lib/log"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { pluginProviders } from "../providers/plugin-providers"
import { processTwSubscriptionWorkflow } from "../workflows/subscriptions/process-tw-subscription"
import { CHECKOUT_OPEN_MS } from "../workflows/subscriptions/decisions/subscription-state"

/** Statuses the service can still change. */
const LIVE = ["pending_first_charge", "active", "retrying"]
/** Each run of the workflow reads the service twice (the subscription and its transactions). */
const READS_PER_RUN = 2

/**
 * The service sends `subscription_cancelled` and `subscription_retry` only
 * with its new-event option, and any notification at most 3 times. So every
 * live subscription is read again here, at the provider's reconciliation
 * rate: those with a charge due first (a period was just charged, retried or
 * failed), then the ones read longest ago (a cancellation in the service's
 * console, a stop). The service sweep of `reconcile-tw-payments` finds paid
 * periods too; both end in the same workflow.
 */
export default async function reconcileTwSubscriptions(container: MedusaContainer, { force = false }: { force?: boolean } = {}) {
  if (!container.hasRegistration(TW_SUBSCRIPTION_MODULE)) {
    return
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  for (const provider of pluginProviders(container)) {
    if (provider.identifier !== "hosted-checkout" || (!provider.reconciliation.enabled && !force)) {
      continue
    }
    const budget = Math.max(1, Math.floor(provider.reconciliation.maxPerRun / READS_PER_RUN))
    const now = new Date()
    // A cancelled row with a next charge is one whose service subscription still charged at the last read (I3).
    const due = await module.listTwSubscriptions(
      { provider_key: provider.key, status: [...LIVE, "cancelled"], next_charge_at: { $lte: now } },
      { take: budget, order: { next_charge_at: "ASC" }, select: ["id"] }
    )
    const stale = await module.listTwSubscriptions(
      {
        provider_key: provider.key,
        $or: [
          { status: LIVE },
          { status: "cancelled", next_charge_at: { $ne: null } },
          // Cancelled before the store knew its page was paid: the page may have started a subscription at the service.
          { status: "cancelled", service_subscription_id: null, payment_session_id: { $ne: null }, created_at: { $gte: new Date(now.getTime() - CHECKOUT_OPEN_MS) } },
          { status: "pending", payment_session_id: { $ne: null }, created_at: { $gte: new Date(now.getTime() - CHECKOUT_OPEN_MS) } },
        ],
      },
      { take: budget, order: { updated_at: "ASC" }, select: ["id"] }
    )
    const ids = [...new Set([...due, ...stale].map((row) => row.id))].slice(0, budget)
    let placed = 0
    for (const [index, id] of ids.entries()) {
      if (index > 0) {
        await sleep((READS_PER_RUN * 1000) / provider.reconciliation.requestsPerSecond)
      }
      try {
        const { result } = await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: id } })
        placed += result.placed.length
      } catch (error) {
        logger.warn(`medusa-payment-tw: reconciling subscription ${id} failed: ${untrusted((error as Error).message, 300)}`)
      }
    }
    if (ids.length) {
      logger.info(`medusa-payment-tw: reconciled ${ids.length} ${provider.key} subscription(s), ${placed} renewal order(s) placed`)
    }
  }
}

export const config = {
  name: "medusa-payment-tw-reconcile-subscriptions",
  // Every 5 minutes unless the store says otherwise (the chaos harness runs it every minute).
  schedule: process.env.TW_SUBSCRIPTION_RECONCILE_SCHEDULE || "*/5 * * * *",
}
