import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { healthReadings } from "../../../health/health-readings"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import type { HealthRule } from "../../../shared/health-views"

/** The rules' readings, their thresholds (the `health` options), and the warnings on before this check. */
export const loadHealthReadingsStep = createStep("load-tw-health-readings", async ({ now }: { now?: number }, { container }) => {
  const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  const thresholds = sweep.healthOptions()
  const [readings, on] = await Promise.all([healthReadings(container, thresholds, now), sweep.listTwHealthWarnings({ cleared_at: null }, { select: ["id"] })])
  return new StepResponse({ readings, thresholds, wasOn: on.map((row) => row.id as HealthRule) })
})
