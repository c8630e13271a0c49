import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { countPayment } from "../../../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"

/**
 * Counts a payment the pipeline just recorded as failed or expired (it leaves no Medusa payment to count),
 * in the health tallies and the metrics.
 */
export const tallyFailedPaymentStep = createStep("tally-tw-failed-payment", async ({ provider }: { provider: string }, { container }) => {
  await container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE).tally({ provider_key: provider, figure: "payment", key: "failed" })
  countPayment(provider, "failed")
  return new StepResponse(true)
})
