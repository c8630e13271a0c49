import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../modules/tw-payment-sweep"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../modules/tw-saved-card"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { providerId } from "../providers/core/provider-keys"
import { type PluginProvider, pluginProviders } from "../providers/plugin-providers"
import {
  DELIVERY_KINDS,
  DELIVERY_VERDICTS,
  type DeliveryKind,
  type DeliveryVerdict,
  type HealthFigures,
  type HealthWindow,
  PLACEMENT_PATHS,
  type PlacementFigure,
  type PlacementPath,
  WINDOW_MS,
} from "../shared/health-views"

/** A refund's provider call is over by then: one the service has not confirmed is awaited. */
export const REFUND_CALL_MS = 5 * 60_000
/** Refunds looked at for those awaited: the reconciliation finishes them within this time. */
const REFUND_LOOKBACK_MS = 7 * 86_400_000
/** At most this many refunds are read for those awaited, newest first. */
const REFUND_READ_LIMIT = 200

const sweep = (container: MedusaContainer) => container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)

/** Whether the payment's data holds the refund; data the provider cannot read (not its own payment's) holds it as far as this page can tell. */
function heldBy(provider: PluginProvider, refundId: string, data: unknown): boolean {
  try {
    return provider.api.hasRefund(refundId, (data ?? {}) as Record<string, unknown>)
  } catch {
    return true
  }
}

/**
 * Refunds of the plugin's payments: how many in the window (a count), and, of the latest ones between 5 minutes
 * and 7 days old, those the service has not confirmed (with the oldest).
 */
export async function refundFigures(container: MedusaContainer, providers: PluginProvider[], since: Date, now: number) {
  const byId = new Map(providers.map((provider) => [providerId(provider.key), provider]))
  const ofPlugin = { provider_id: [...byId.keys()] }
  const [refunded, { data }] = await Promise.all([
    count(container, "refund", { created_at: { $gte: since }, payment: ofPlugin }),
    container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "refund",
      fields: ["id", "amount", "created_at", "payment.provider_id", "payment.data"],
      filters: { created_at: { $gte: new Date(now - REFUND_LOOKBACK_MS), $lte: new Date(now - REFUND_CALL_MS) }, payment: ofPlugin },
      pagination: { take: REFUND_READ_LIMIT, skip: 0, order: { created_at: "DESC" } },
    }),
  ])
  const awaiting = { count: 0, amount: 0, oldest: null as Date | null }
  for (const refund of data as Array<{ id: string; amount: unknown; created_at: string | Date; payment?: { provider_id: string; data?: unknown } | null }>) {
    const provider = byId.get(refund.payment?.provider_id ?? "")
    if (provider && !heldBy(provider, refund.id, refund.payment?.data)) {
      const created = new Date(refund.created_at)
      awaiting.count += 1
      awaiting.amount += Number(refund.amount)
      awaiting.oldest = !awaiting.oldest || created < awaiting.oldest ? created : awaiting.oldest
    }
  }
  return { refunded, awaiting }
}

/** Saved-card charges whose outcome is open, and the oldest one's start. */
export async function openCharges(container: MedusaContainer): Promise<{ count: number; oldest: Date | null }> {
  if (!container.hasRegistration(TW_SAVED_CARD_MODULE)) {
    return { count: 0, oldest: null }
  }
  const [rows, count] = await container
    .resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
    .listAndCountTwSavedCardCharges({ status: ["charging", "unknown"] }, { take: 1, order: { created_at: "ASC" }, select: ["id", "created_at"] })
  return { count, oldest: rows[0] ? new Date(rows[0].created_at) : null }
}

/** Deliveries since a time, by kind and verdict (every cell present). */
export async function deliveryFigures(container: MedusaContainer, since: Date): Promise<Record<DeliveryKind, Record<DeliveryVerdict, number>>> {
  const zero = () => Object.fromEntries(DELIVERY_VERDICTS.map((verdict) => [verdict, 0])) as Record<DeliveryVerdict, number>
  const figures = Object.fromEntries(DELIVERY_KINDS.map((kind) => [kind, zero()])) as Record<DeliveryKind, Record<DeliveryVerdict, number>>
  for (const row of await sweep(container).tallies("delivery", since)) {
    const [kind, verdict] = row.key.split(":") as [DeliveryKind, DeliveryVerdict]
    if (figures[kind] && verdict in figures[kind]) {
      figures[kind][verdict] += row.count
    }
  }
  return figures
}

async function count(container: MedusaContainer, entity: string, filters: Record<string, unknown>): Promise<number> {
  const { metadata } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity, fields: ["id"], filters, pagination: { take: 1, skip: 0 } })
  return Number(metadata?.count ?? 0)
}

/**
 * The health page's figures for one window, from indexed, bounded reads: Medusa's payments (captured in the
 * window) and refunds (the latest, bounded), the plugin's placements, tallies, remittances, subscriptions and
 * saved-card charges. Never the order table.
 */
export async function healthFigures(container: MedusaContainer, window: HealthWindow, now = Date.now()): Promise<HealthFigures> {
  const since = new Date(now - WINDOW_MS[window])
  const providers = pluginProviders(container)
  const subscriptions = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const [captured, placements, failed, refunds, deliveries, remittances, retrying, exhausted, renewalsUnplaced, charges] = await Promise.all([
    count(container, "payment", { provider_id: providers.map((provider) => providerId(provider.key)), captured_at: { $gte: since } }),
    sweep(container).placementFigures(since),
    sweep(container).tallies("payment", since),
    refundFigures(container, providers, since, now),
    deliveryFigures(container, since),
    sweep(container).remittancesDue(),
    subscriptions.listAndCountTwSubscriptions({ status: "retrying" }, { take: 1, select: ["id"] }).then(([, n]) => n),
    subscriptions.listAndCountTwSubscriptions({ status: "stopped" }, { take: 1, select: ["id"] }).then(([, n]) => n),
    subscriptions.listAndCountTwSubscriptionPeriods({ status: "paid", order_id: null, period: { $gt: 1 } }, { take: 1, select: ["id"] }).then(([, n]) => n),
    openCharges(container),
  ])
  const total = placements.rows.reduce((sum, row) => sum + row.count, 0)
  const placementOf = (path: PlacementPath): PlacementFigure => {
    const row = placements.rows.find((r) => r.path === path)
    return { count: row?.count ?? 0, share: total && row ? row.count / total : 0, p50: row?.p50 ?? null, p95: row?.p95 ?? null }
  }
  return {
    window,
    since: since.toISOString(),
    payments: {
      captured,
      awaiting: placements.awaiting,
      failed: failed.filter((row) => row.key === "failed").reduce((sum, row) => sum + row.count, 0),
      refunded: refunds.refunded,
    },
    placements: Object.fromEntries(PLACEMENT_PATHS.map((path) => [path, placementOf(path)])) as Record<PlacementPath, PlacementFigure>,
    deliveries,
    money: { refundsAwaiting: { count: refunds.awaiting.count, amount: refunds.awaiting.amount }, remittancesDue: { count: remittances.count, amount: remittances.amount } },
    subscriptions: { retrying, exhausted, renewalsUnplaced },
    savedCards: { openCharges: charges.count },
  }
}
