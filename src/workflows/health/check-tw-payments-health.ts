import { createHook, createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { evaluateHealth, healthChanges } from "./decisions/health-rules"
import { loadHealthReadingsStep } from "./steps/load-tw-health-readings"
import { recordHealthWarningsStep } from "./steps/record-tw-health-warnings"

export const checkTwPaymentsHealthWorkflowId = "check-tw-payments-health"

/**
 * The payments health rules, run by the job `medusa-payment-tw-health` every minute: the readings, the
 * warnings they call for (`evaluateHealth`), those that start or clear written and logged once, then the
 * hook `paymentsHealthChanged` (only on a change) with what started, what cleared and what is on, so a
 * store can send mail or chat.
 */
export const checkTwPaymentsHealthWorkflow = createWorkflow(checkTwPaymentsHealthWorkflowId, (input: { now?: number }) => {
  const loaded = loadHealthReadingsStep({ now: input.now })
  const verdicts = transform({ loaded }, ({ loaded }) => evaluateHealth(loaded.readings, loaded.thresholds))
  const changes = transform({ verdicts, loaded }, ({ verdicts, loaded }) => healthChanges(verdicts, loaded.wasOn))
  const recorded = when("tw-health-changed", { changes }, ({ changes }) => changes.started.length + changes.cleared.length > 0).then(() => recordHealthWarningsStep(changes))
  const payload = transform({ changes, verdicts }, ({ changes, verdicts }) => ({ started: changes.started, cleared: changes.cleared, active: verdicts }))
  const paymentsHealthChanged = when("tw-health-hook", { changes }, ({ changes }) => changes.started.length + changes.cleared.length > 0).then(() =>
    createHook("paymentsHealthChanged", payload)
  )
  return new WorkflowResponse({ active: verdicts, changes: recorded }, { hooks: [paymentsHealthChanged] })
})
