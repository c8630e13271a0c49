import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import { type HealthRule, healthRuleText } from "../../../shared/health-views"
import type { RuleVerdict } from "../decisions/health-rules"

export interface HealthChanges {
  started: RuleVerdict[]
  cleared: HealthRule[]
}

interface Previous {
  started: HealthRule[]
  cleared: Array<{ id: string; started_at: Date; figure: number }>
}

/**
 * Writes the warnings that start (on, with their figure) and clear, and logs each once: a start as a
 * warning with what to do, a clear as news. Undone when a later step (a merchant's hook) fails, so the next
 * check finds the same change and runs the hook again.
 */
export const recordHealthWarningsStep = createStep(
  "record-tw-health-warnings",
  async ({ started, cleared }: HealthChanges, { container }) => {
    const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    const now = new Date()
    const before = cleared.length ? await sweep.listTwHealthWarnings({ id: cleared }, { select: ["id", "started_at", "figure"] }) : []
    if (started.length) {
      await sweep.writeHealthWarnings(started.map((warning) => ({ id: warning.rule, started_at: now, cleared_at: null, figure: warning.figure })))
    }
    if (cleared.length) {
      await sweep.updateTwHealthWarnings(cleared.map((id) => ({ id, cleared_at: now })))
    }
    for (const warning of started) {
      logger.warn(`medusa-payment-tw health: ${warning.rule} started: ${healthRuleText(warning, "en")}`)
    }
    for (const rule of cleared) {
      logger.info(`medusa-payment-tw health: ${rule} cleared`)
    }
    return new StepResponse({ started, cleared }, { started: started.map((warning) => warning.rule), cleared: before.map((row) => ({ id: row.id, started_at: new Date(row.started_at), figure: row.figure })) } satisfies Previous)
  },
  async (previous, { container }) => {
    if (!previous) {
      return
    }
    const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
    if (previous.started.length) {
      await sweep.deleteTwHealthWarnings(previous.started)
    }
    if (previous.cleared.length) {
      await sweep.writeHealthWarnings(previous.cleared.map((row) => ({ ...row, cleared_at: null })))
    }
  }
)
