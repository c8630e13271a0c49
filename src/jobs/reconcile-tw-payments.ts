import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { setTimeout as sleep } from "node:timers/promises"
import { untrusted } from "../lib/log"
import { providerId } from "../providers/core/provider-keys"
import { finishTwRecordedRefundWorkflow, processTwPaymentWorkflow } from "../workflows"
import { checkCutShortOrders } from "../reconciliation/cut-short-orders"
import { type PluginProvider, pluginProviders } from "../providers/plugin-providers"
import { settleSavedCardCharges } from "../reconciliation/settle-saved-card-charges"
import { sweepTwServicePaymentsWorkflow } from "../workflows/sweep/sweep-tw-service-payments"

/** Sessions older than this are never read again (no code or intent lives this long). */
const MAX_AGE_MS = 14 * 24 * 3_600_000
const UNSETTLED = ["pending", "requires_more", "pending_authorization"]
/** A refund's provider call is over by then (time-outs and retries included): one still unanswered was cut short. */
const REFUND_CALL_MS = 5 * 60_000
/** How far back refunds are checked: the job runs every minute, so a crash's refund is met many times over. */
const REFUND_WINDOW_MS = 7 * 24 * 3_600_000

/**
 * Catches what deliveries did not: the service notifies 3 times and never
 * again, webhooks can be lost, and a completion can fail under load. Two
 * walks per provider, both ending in the same workflow as a delivery, at a
 * bounded request rate:
 * - the store's walk: every unsettled session of the provider that could
 *   still change (or is paid and waits for its order);
 * - the service sweep (workflow `sweep-tw-service-payments`): the
 *   service's own recent payments, for money paid to a session the store
 *   no longer has;
 * then the refunds core recorded whose provider call a crash cut short
 * (workflow `finish-tw-recorded-refund`), the orders a completion cut short
 * left without their payment (`reconciliation/cut-short-orders.ts`, once per order, by a
 * cursor), and the saved-card charges whose outcome is unknown, read by their
 * order (`reconciliation/settle-saved-card-charges.ts`).
 * Scheduled jobs run in worker processes, once per tick across the cluster
 * under the Redis workflow engine.
 */
export default async function reconcileTwPayments(
  container: MedusaContainer,
  /** `force`: also for providers whose scheduled reconciliation is off (an operator's one-off run, tests). */
  { force = false }: { force?: boolean } = {}
) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const reconciled = pluginProviders(container).filter((provider) => provider.reconciliation.enabled || force)
  for (const provider of reconciled) {
    const walked = await walkStoreSessions(container, provider)
    await sweepService(container, provider, walked).catch((error: Error) => {
      logger.warn(`medusa-payment-tw: sweeping ${provider.key} payments failed: ${untrusted(error.message, 300)}`)
    })
    await finishRecordedRefunds(container, provider).catch((error: Error) => {
      logger.warn(`medusa-payment-tw: checking ${provider.key} refunds failed: ${untrusted(error.message, 300)}`)
    })
  }
  await checkCutShortOrders(container, reconciled).catch((error: Error) => {
    logger.warn(`medusa-payment-tw: checking orders without a payment failed: ${untrusted(error.message, 300)}`)
  })
  await settleSavedCardCharges(container, { force }).catch((error: Error) => {
    logger.warn(`medusa-payment-tw: settling saved-card charges failed: ${untrusted(error.message, 300)}`)
  })
}

/** Runs the workflow for the store's open sessions; returns the payments it ran. */
async function walkStoreSessions(container: MedusaContainer, { key, api, reconciliation }: PluginProvider): Promise<Set<string>> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const now = Date.now()
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "data", "created_at"],
    filters: { provider_id: providerId(key), status: UNSETTLED, created_at: { $gte: new Date(now - MAX_AGE_MS) } },
    pagination: { take: reconciliation.maxPerRun * 4, order: { created_at: "DESC" } },
  })
  const open = sessions
    .filter((s) => api.reconcilable({ status: s.status, data: (s.data ?? {}) as Record<string, unknown>, createdAt: new Date(s.created_at) }, now))
    .slice(0, reconciliation.maxPerRun)

  const walked = new Set<string>()
  let news = 0
  for (const [index, session] of open.entries()) {
    if (index > 0) {
      await sleep(1000 / reconciliation.requestsPerSecond)
    }
    const serviceId = String((session.data as Record<string, unknown>)[api.idField])
    walked.add(serviceId)
    try {
      const { result } = await processTwPaymentWorkflow(container).run({ input: { provider: key, serviceId } })
      news += result.decision.kind === "ignore" ? 0 : 1
    } catch (error) {
      logger.warn(`medusa-payment-tw: reconciling session ${session.id} failed: ${untrusted((error as Error).message, 300)}`)
    }
  }
  if (open.length) {
    logger.info(`medusa-payment-tw: reconciled ${open.length} open ${key} session(s), ${news} with news`)
  }
  return walked
}

/** The service sweep of one provider (`sweep-tw-service-payments`), skipping what the store's walk just ran. */
async function sweepService(container: MedusaContainer, { key, reconciliation }: PluginProvider, walked: Set<string>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { result } = await sweepTwServicePaymentsWorkflow(container).run({ input: { provider: key, skip: [...walked] } })
  const { outcome } = result
  if (!outcome) {
    logger.info(`medusa-payment-tw: the ${key} sweep is already running elsewhere; skipped`)
    return
  }
  if (outcome.processed || outcome.failed) {
    logger.info(`medusa-payment-tw: swept ${outcome.pages} page(s) of ${key} payments: ${outcome.processed} run, ${outcome.changed} with news, ${outcome.failed} failed`)
  }
  if (!outcome.complete) {
    logger.warn(`medusa-payment-tw: the ${key} sweep stopped at its budget (maxPerRun ${reconciliation.maxPerRun}); it continues next run`)
  }
}

/** Refunds of the provider's payments whose data does not hold them, old enough that no call is in flight. */
async function finishRecordedRefunds(container: MedusaContainer, { key, api, reconciliation }: PluginProvider) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const now = Date.now()
  const refunds = await container.resolve(Modules.PAYMENT).listRefunds(
    // The module filters refunds by their dates too; its filter type names only a few fields.
    { created_at: { $gte: new Date(now - REFUND_WINDOW_MS), $lte: new Date(now - REFUND_CALL_MS) } } as never,
    { relations: ["payment"], take: reconciliation.maxPerRun * 4, order: { created_at: "DESC" } }
  )
  const unanswered = refunds.filter((refund) => refund.payment?.provider_id === providerId(key) && !api.hasRefund(refund.id, (refund.payment.data ?? {}) as Record<string, unknown>))
  for (const refund of unanswered.slice(0, reconciliation.maxPerRun)) {
    try {
      const { result } = await finishTwRecordedRefundWorkflow(container).run({ input: { provider: key, refundId: refund.id } })
      if (result.state === "made") {
        logger.warn(`medusa-payment-tw: refund ${refund.id} of payment ${result.paymentId} was made at the service but its answer was lost; recorded now`)
      } else if (result.state === "not made") {
        const outcome = result.refunded ? "made it again" : `could not make it again (${result.reason}); the store shows no refund: refund from the admin again`
        logger.warn(`medusa-payment-tw: refund ${refund.id} of payment ${result.paymentId} was recorded but never reached the service; ${outcome}`)
      }
    } catch (error) {
      logger.warn(`medusa-payment-tw: finishing refund ${refund.id} failed: ${untrusted((error as Error).message, 300)}`)
    }
  }
}

export const config = {
  name: "medusa-payment-tw-reconcile",
  schedule: "* * * * *",
}
