import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { type SyncInput, syncSubscription } from "./sync-subscription"

export const processTwSubscriptionWorkflowId = "process-tw-subscription"

/** See `syncSubscription`: one fresh read, then the store brought in line under a lock on the subscription. */
const syncTwSubscriptionStep = createStep("sync-tw-subscription", async (input: SyncInput, { container }) => {
  return new StepResponse(await syncSubscription(container, input))
})

/**
 * The subscription branch of the event pipeline: period `charge`
 * notifications, `schedule_subscription`, `subscription_cancelled` and
 * `subscription_retry` notifications, the first order's `order.placed` and
 * the reconciliation all run it. Effects are made idempotent inside the step
 * (a row per period, unique; an order id written before its payment), so a
 * retried or concurrent run ends in the same state.
 */
export const processTwSubscriptionWorkflow = createWorkflow(processTwSubscriptionWorkflowId, (input: SyncInput) => {
  return new WorkflowResponse(syncTwSubscriptionStep(input))
})
