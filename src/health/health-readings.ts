import type { MedusaContainer } from "@medusajs/framework/types"
import { observeMoneyWaiting } from "../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../modules/tw-payment-sweep"
import type { HealthOptions } from "../modules/tw-payment-sweep/health-options"
import { pluginProviders } from "../providers/plugin-providers"
import type { HealthReadings } from "../workflows/health/decisions/health-rules"
import { deliveryFigures, openCharges, refundFigures } from "./health-figures"

/**
 * What the health rules look at, over the rules' window (`windowMinutes`), from the same bounded reads as
 * the page. The money waiting is handed to the metrics' gauges on the way.
 */
export async function healthReadings(container: MedusaContainer, options: HealthOptions, now = Date.now()): Promise<HealthReadings> {
  const since = new Date(now - options.windowMinutes * 60_000)
  const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  const [latestPaths, deliveries, refunds, remittances, charges] = await Promise.all([
    sweep.latestPlacementPaths(since, options.reconciledOrders),
    deliveryFigures(container, since),
    refundFigures(container, pluginProviders(container), since, now),
    sweep.remittancesDue(),
    openCharges(container),
  ])
  observeMoneyWaiting({ refundsAwaiting: refunds.awaiting.amount, remittancesDue: remittances.amount })
  return {
    now,
    latestPaths,
    signatureFailures: deliveries.webhook.unsigned + deliveries.webhook.signature_failed,
    oldestAwaitedRefund: refunds.awaiting.oldest?.getTime() ?? null,
    oldestRemittanceDue: remittances.oldest?.getTime() ?? null,
    oldestOpenCharge: charges.oldest?.getTime() ?? null,
  }
}
