import type { MedusaContainer } from "@medusajs/framework/types"
import { observeMoneyWaiting } from "../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../modules/tw-payment-sweep"
import type { HealthOptions } from "../modules/tw-payment-sweep/health-options"
import { pluginProviders } from "../providers/plugin-providers"
import type { HealthReadings } from "../workflows/health/decisions/health-rules"
import { openCharges, refundFigures } from "./health-figures"

/**
 * What the health rules look at, over the rules' window (`windowMinutes`), from the same bounded reads as
 * the page. The money waiting is handed to the metrics' gauges on the way.
 */
export async function healthReadings(container: MedusaContainer, options: HealthOptions, now = Date.now()): Promise<HealthReadings> {
  const since = new Date(now - options.windowMinutes * 60_000)
  const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  const [latestPaths, deliveries, refunds, remittances, charges] = await Promise.all([
    sweep.latestPlacementPaths(since, options.reconciledOrders),
    sweep.tallies("delivery", since),
    refundFigures(container, pluginProviders(container), since, now),
    sweep.remittancesDue(),
    openCharges(container),
  ])
  const webhooks = (verdicts: string[]) => deliveries.filter((row) => verdicts.some((verdict) => row.key === `webhook:${verdict}`))
  const latest = (rows: Array<{ last: Date }>) => (rows.length ? Math.max(...rows.map((row) => row.last.getTime())) : null)
  const failures = webhooks(["unsigned", "signature_failed"])
  observeMoneyWaiting({ refundsAwaiting: refunds.awaiting.amount, remittancesDue: remittances.amount })
  return {
    now,
    latestPaths,
    signatureFailures: failures.reduce((sum, row) => sum + row.count, 0),
    lastSignatureFailure: latest(failures),
    lastVerifiedWebhook: latest(webhooks(["verified"])),
    oldestAwaitedRefund: refunds.awaiting.oldest?.getTime() ?? null,
    oldestRemittanceDue: remittances.oldest?.getTime() ?? null,
    oldestOpenCharge: charges.oldest?.getTime() ?? null,
  }
}
