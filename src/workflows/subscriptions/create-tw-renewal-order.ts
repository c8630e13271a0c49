import { createHook, createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import type { Transaction } from "../../lib/hosted"
import { addTwRenewalPaymentCollectionStep } from "./steps/add-tw-renewal-payment-collection"
import { authorizeTwRenewalPaymentStep, type RenewalSubscription } from "./steps/authorize-tw-renewal-payment"
import { createTwRenewalOrderStep } from "./steps/place-tw-renewal-order"
import { linkTwSubscriptionOrderStep } from "./steps/link-tw-subscription-order"
import { nameTwRenewalOrderStep } from "./steps/name-tw-renewal-order"
import { recordTwRenewalPaymentStep } from "./steps/record-tw-renewal-payment"
import type { ObservedPeriod } from "./decisions/subscription-state"

export type { RenewalSubscription } from "./steps/authorize-tw-renewal-payment"

export const createTwRenewalOrderWorkflowId = "create-tw-renewal-order"

export interface CreateTwRenewalOrderInput {
  subscription: RenewalSubscription
  first_order_id: string
  /** The period's row. */
  period_id: string
  period: ObservedPeriod
  /** The sync's read of the period's transaction. */
  transaction: Transaction
}

/**
 * One paid period's renewal order: created (a copy of the first order, or
 * the one already made for the period's transaction), named on the period,
 * linked to the subscription, paid with the period's transaction, its
 * payment recorded. Runs under `process-tw-subscription`'s lock on the
 * subscription. Idempotent on the service's transaction: a run that stopped
 * anywhere is finished by the next. A failure undoes what the run made,
 * except a captured payment and its order, which the next run completes.
 * Hook `renewalOrderCreated` once the order is paid.
 */
export const createTwRenewalOrderWorkflow = createWorkflow(createTwRenewalOrderWorkflowId, (input: CreateTwRenewalOrderInput) => {
  const order = createTwRenewalOrderStep(
    transform({ input }, ({ input }) => ({
      subscriptionId: input.subscription.id,
      customerId: input.subscription.customer_id,
      firstOrderId: input.first_order_id,
      periodId: input.period_id,
      period: input.period,
    }))
  )
  nameTwRenewalOrderStep({ periodId: input.period_id, orderId: order.orderId })
  linkTwSubscriptionOrderStep({ subscriptionId: input.subscription.id, orderId: order.orderId }).config({ name: "link-tw-renewal-order" })
  const collection = addTwRenewalPaymentCollectionStep({ orderId: order.orderId, amount: input.period.amount })
  authorizeTwRenewalPaymentStep({
    subscription: input.subscription,
    orderId: order.orderId,
    collectionId: collection.collectionId,
    captured: collection.captured,
    period: input.period,
    transaction: input.transaction,
  })
  recordTwRenewalPaymentStep({
    subscriptionId: input.subscription.id,
    periodId: input.period_id,
    period: input.period.period,
    transactionHid: input.period.transactionHid,
    orderId: order.orderId,
  })
  const renewalOrderCreated = createHook("renewalOrderCreated", { subscription_id: input.subscription.id, order_id: order.orderId, period: input.period.period })
  return new WorkflowResponse({ order_id: order.orderId }, { hooks: [renewalOrderCreated] })
})
