import { createHook, createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { subscriptionLockKey } from "./process-tw-subscription"
import { cancelAtServiceStep } from "./steps/cancel-tw-subscription-at-service"
import { learnServiceNumberStep } from "./steps/learn-tw-subscription-number"
import { loadCancellableStep } from "./steps/load-cancellable-tw-subscription"
import { markCancelledStep } from "./steps/mark-tw-subscription-cancelled"
import { releaseCheckoutStep } from "./steps/release-tw-subscription-checkout"
import { syncReleasedCheckoutStep } from "./steps/sync-released-tw-subscription-checkout"

export const cancelTwSubscriptionWorkflowId = "cancel-tw-subscription"

export interface CancelTwSubscriptionInput {
  subscription_id: string
  reason?: string
  by: "admin" | "customer"
}

/**
 * Cancels a subscription, by its customer or the merchant: under the
 * subscription's lock (no period is recorded meanwhile), the store's row
 * first (undone if what follows fails), then the service's subscription, or
 * for a checkout not yet paid, its payment session. Nothing is left at the
 * service that can still charge; a charge that slips through anyway is
 * refunded by the subscription's next sync. Hook `subscriptionCancelled`.
 */
export const cancelTwSubscriptionWorkflow = createWorkflow(cancelTwSubscriptionWorkflowId, (input: CancelTwSubscriptionInput) => {
  learnServiceNumberStep(input.subscription_id)
  const lockKey = transform({ input }, ({ input }) => subscriptionLockKey(input.subscription_id))
  acquireLockStep({ key: lockKey, timeout: 60, ttl: 120 })
  const row = loadCancellableStep(input.subscription_id)
  const marked = transform({ input, row }, ({ input, row }) => ({ ...input, id: row.id }))
  markCancelledStep(marked)
  when("tw-cancel-at-service", { row }, ({ row }) => !!row.hid).then(() => {
    const target = transform({ input, row }, ({ input, row }) => ({ provider_key: row.provider_key, hid: row.hid ?? "", reason: input.reason }))
    cancelAtServiceStep(target)
  })
  when("tw-release-checkout", { row }, ({ row }) => !row.hid).then(() => {
    releaseCheckoutStep(row)
  })
  releaseLockStep({ key: lockKey })
  when("tw-sync-released-checkout", { row }, ({ row }) => !row.hid).then(() => {
    syncReleasedCheckoutStep(input.subscription_id)
  })
  const subscriptionCancelled = createHook("subscriptionCancelled", { subscription_id: input.subscription_id, by: input.by })
  return new WorkflowResponse({ subscription_id: input.subscription_id }, { hooks: [subscriptionCancelled] })
})
