import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { setTimeout as sleep } from "node:timers/promises"
import { processTwPaymentWorkflow } from "../../payments/process-tw-payment"
import { type DuePayment, runSweep } from "../decisions/service-sweep"
import { processTwSubscriptionWorkflow } from "../../subscriptions/process-tw-subscription"
import { subscriptionOfSession } from "../../../subscriptions/subscription-of-session"
import { sweepProvider } from "../../../reconciliation/sweep-provider"

/**
 * Hands each payment the walk found to the pipeline, as its own run of
 * `process-tw-payment` (or, for a subscription's period, of
 * `process-tw-subscription`), never as a sub-workflow: each takes its own
 * locks and its result stands, whatever the sweep does next, so there is
 * nothing to undo here. A failed run is counted, not thrown.
 */
export const runSweptPaymentsStep = createStep("run-tw-swept-payments", async ({ provider, due }: { provider: string; due: DuePayment[] }, { container }) => {
  const { reconciliation } = sweepProvider(container, provider)
  const syncedInRun = new Set<string>()
  const runs = await runSweep(due, {
    process: async (serviceId, sessionId) => {
      // A period of a subscription (its session is the subscription's checkout): the subscription workflow places its order.
      const subscription = await subscriptionOfSession(container, sessionId)
      if (subscription) {
        if (syncedInRun.has(subscription)) {
          return false // one read of a subscription covers all its periods
        }
        syncedInRun.add(subscription)
        // .run(), not runAsStep: one sync per subscription the sweep found, in a loop, each under its own lock; its result stands whatever the sweep does next
        const { result } = await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: subscription } })
        return result.placed.length > 0
      }
      // .run(), not runAsStep: one pipeline run per payment the sweep found, in a loop, each under its cart lock; a failure is counted, not thrown, and the result stands
      const { result } = await processTwPaymentWorkflow(container).run({ input: { provider, serviceId } })
      return result.decision.kind !== "ignore"
    },
    pause: () => sleep(1000 / reconciliation.requestsPerSecond),
    logger: container.resolve(ContainerRegistrationKeys.LOGGER),
  })
  return new StepResponse(runs)
})
