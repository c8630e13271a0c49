import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createHook, createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { untrusted } from "../../lib/log"
import type { SubscriptionStatus } from "../../modules/tw-subscription/models/subscription"
import { placedOrder } from "../payments/steps/complete-tw-paid-cart"
import { cancelAtService } from "../../subscriptions/cancel-at-service"
import { processTwSubscriptionWorkflow, subscriptionLockKey } from "./process-tw-subscription"
import { subscriptionModule } from "../../subscriptions/subscription-module"

export const cancelTwSubscriptionWorkflowId = "cancel-tw-subscription"

export interface CancelTwSubscriptionInput {
  subscription_id: string
  reason?: string
  by: "admin" | "customer"
}

const FINAL = new Set(["stopped", "completed", "cancelled"])

const alreadyOver = (row: { id: string; status: string }) =>
  new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${row.id} is already ${row.status}; nothing was changed.`)

/** A monthly checkout's S number arrives with its notifications: the service is read once more before giving up (before this workflow's lock: the sync takes it). */
const learnServiceNumberStep = createStep("learn-tw-subscription-number", async (id: string, { container }) => {
  const row = await subscriptionModule(container).retrieveTwSubscription(id)
  if (FINAL.has(row.status)) {
    throw alreadyOver(row)
  }
  if (!row.service_subscription_id && row.status !== "pending") {
    await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: id, findNumber: true } })
  }
  return new StepResponse(undefined)
})

/** Read under the subscription's lock: what the cancellation acts on. */
const loadCancellableStep = createStep("load-cancellable-tw-subscription", async (id: string, { container }) => {
  const row = await subscriptionModule(container).retrieveTwSubscription(id)
  if (FINAL.has(row.status)) {
    throw alreadyOver(row)
  }
  if (!row.service_subscription_id && row.status !== "pending") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `The payment service has not yet told the store the number of subscription ${row.id}; nothing was changed. Try again in a minute.`
    )
  }
  return new StepResponse({ id: row.id, status: row.status, provider_key: row.provider_key, cart_id: row.cart_id, payment_session_id: row.payment_session_id, hid: row.service_subscription_id })
})

type Previous = { id: string; status: SubscriptionStatus; cancel_reason: string | null; cancelled_at: Date | null; next_charge_at: Date | null }

/** The store side first, since it can be undone: a service that then refuses leaves the subscription as it was. */
const markCancelledStep = createStep(
  "mark-tw-subscription-cancelled",
  async ({ id, reason, by }: CancelTwSubscriptionInput & { id: string }, { container }) => {
    const module = subscriptionModule(container)
    const before = await module.retrieveTwSubscription(id)
    await module.updateTwSubscriptions({
      id,
      status: "cancelled",
      cancel_reason: reason ?? (by === "customer" ? "Cancelled by the customer" : "Cancelled by the store"),
      cancelled_at: new Date(),
      next_charge_at: null,
    })
    const previous: Previous = { id, status: before.status, cancel_reason: before.cancel_reason, cancelled_at: before.cancelled_at, next_charge_at: before.next_charge_at }
    return new StepResponse(undefined, previous)
  },
  async (previous, { container }) => {
    if (previous) {
      await subscriptionModule(container).updateTwSubscriptions(previous)
    }
  }
)

/** `PUT /subscriptions/{S number}`: cannot be undone, so it comes last. */
const cancelAtServiceStep = createStep("cancel-tw-subscription-at-service", async ({ provider_key, hid, reason }: { provider_key: string; hid: string; reason?: string }, { container }) => {
  await cancelAtService(container, provider_key, hid, reason)
  return new StepResponse(undefined)
})

/**
 * A checkout not yet paid cannot be cancelled at the service (`V0002`) and
 * its page stays payable: the store drops the checkout's payment session, so
 * the cart cannot be completed with it and a page paid later is an orphan
 * (refunded; the subscription it started is cancelled by the next sync).
 * Under the cart's lock, so no completion is half-way; a first order placed
 * meanwhile means the subscription has started after all.
 */
const releaseCheckoutStep = createStep(
  "release-tw-subscription-checkout",
  async ({ id, cart_id, payment_session_id }: { id: string; cart_id: string; payment_session_id: string | null }, { container }) => {
    if (!payment_session_id) {
      return new StepResponse(undefined)
    }
    await container.resolve(Modules.LOCKING).execute(
      cart_id,
      async () => {
        if (await placedOrder(container, cart_id)) {
          throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${id} has just started (its first order was placed); nothing was changed. Try again in a minute.`)
        }
        const payments = container.resolve(Modules.PAYMENT)
        const [session] = await payments.listPaymentSessions({ id: payment_session_id }, { select: ["id"] })
        if (session) {
          await payments.deletePaymentSession(payment_session_id)
        }
      },
      { timeout: 30 }
    )
    return new StepResponse(undefined)
  }
)

/**
 * After a checkout not yet known to be paid was released: its page may have
 * been paid already (a notification still on its way, or lost), which
 * started a subscription at the service. The sync reads the service, finds
 * that subscription and cancels it. Not undone and never failing the
 * cancellation: the reconciliation runs the same sync again.
 */
const syncReleasedCheckoutStep = createStep("sync-released-tw-subscription-checkout", async (id: string, { container }) => {
  try {
    await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: id } })
  } catch (error) {
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: subscription ${id} cancelled; the service is read again by the reconciliation: ${untrusted((error as Error).message, 300)}`)
  }
  return new StepResponse(undefined)
})

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
