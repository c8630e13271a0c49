import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../../lib/log"
import { countDelivery } from "../../../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import type { DeliveryKind, DeliveryVerdict } from "../../../shared/health-views"

export interface DeliveryVerdicts {
  provider: string
  kind: DeliveryKind
  verdicts: DeliveryVerdict[]
}

/**
 * Counts what became of one delivery, in the health tallies and the metrics. A count is not taken back, and one
 * that fails is logged, never failing the payment's run it ends.
 */
export const tallyDeliveryVerdictsStep = createStep("tally-tw-delivery-verdicts", async ({ provider, kind, verdicts }: DeliveryVerdicts, { container }) => {
  const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  let counted = 0
  try {
    for (const verdict of verdicts) {
      await sweep.tally({ provider_key: provider, figure: "delivery", key: `${kind}:${verdict}` })
      countDelivery(provider, kind, verdict)
      counted += 1
    }
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`${provider}: counting a delivery failed: ${untrusted((error as Error).message, 300)}`)
  }
  return new StepResponse(counted)
})
