import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { healthFigures } from "../../../../health/health-figures"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../../modules/tw-payment-sweep"
import { HEALTH_RULES, type HealthResponse, type HealthRule } from "../../../../shared/health-views"
import { thresholdOf } from "../../../../workflows/health/decisions/health-rules"
import type { AdminTwPaymentsHealthType } from "../validators"

/** GET /admin/tw-payments/health?window=hour|day|week: the payments health figures of the window, and the warnings on now. */
export async function GET(req: AuthenticatedMedusaRequest<unknown, AdminTwPaymentsHealthType>, res: MedusaResponse<HealthResponse>) {
  const { window } = req.validatedQuery as AdminTwPaymentsHealthType
  const sweep = req.scope.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  const thresholds = sweep.healthOptions()
  const [figures, on] = await Promise.all([healthFigures(req.scope, window), sweep.listTwHealthWarnings({ cleared_at: null }, { order: { started_at: "ASC" } })])
  const warnings = on
    .filter((row) => (HEALTH_RULES as readonly string[]).includes(row.id))
    .map((row) => ({ rule: row.id as HealthRule, figure: row.figure, threshold: thresholdOf(row.id as HealthRule, thresholds), startedAt: new Date(row.started_at).toISOString() }))
  res.json({ figures, warnings })
}
