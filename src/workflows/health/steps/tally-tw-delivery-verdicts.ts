import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { countDelivery } from "../../../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import type { DeliveryKind, DeliveryVerdict } from "../../../shared/health-views"

export interface DeliveryVerdicts {
  provider: string
  kind: DeliveryKind
  verdicts: DeliveryVerdict[]
}

/** Counts what became of one delivery, in the health tallies and the metrics. A count is not taken back. */
export const tallyDeliveryVerdictsStep = createStep("tally-tw-delivery-verdicts", async ({ provider, kind, verdicts }: DeliveryVerdicts, { container }) => {
  const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  for (const verdict of verdicts) {
    await sweep.tally({ provider_key: provider, figure: "delivery", key: `${kind}:${verdict}` })
    countDelivery(provider, kind, verdict)
  }
  return new StepResponse(verdicts.length)
})
