import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import { processTwSubscriptionWorkflow } from "../process-tw-subscription"
import { alreadyOver, FINAL } from "./load-cancellable-tw-subscription"

/** A monthly checkout's S number arrives with its notifications: the service is read once more before giving up (before this workflow's lock: the sync takes it). */
export const learnServiceNumberStep = createStep("learn-tw-subscription-number", async (id: string, { container }) => {
  const row = await subscriptionModule(container).retrieveTwSubscription(id)
  if (FINAL.has(row.status)) {
    throw alreadyOver(row)
  }
  if (!row.service_subscription_id && row.status !== "pending") {
    // .run(), not runAsStep: the sync takes the subscription's lock (a sub-workflow skips it), and what it learned stands if the cancel then fails
    await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: id, findNumber: true } })
  }
  return new StepResponse(undefined)
})
