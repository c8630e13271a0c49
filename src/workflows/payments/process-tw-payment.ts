import { authorizePaymentSessionStep, acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { PaymentActions } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { recordOrderPlacementStep } from "../health/steps/record-tw-order-placement"
import { tallyDeliveryVerdictsStep } from "../health/steps/tally-tw-delivery-verdicts"
import { tallyFailedPaymentStep } from "../health/steps/tally-tw-failed-payment"
import type { DeliveryKind, DeliveryVerdict } from "../../shared/health-views"
import type { Decision } from "./decisions/payment-decision"
import { adoptAwaitedPaymentStep } from "./steps/adopt-tw-awaited-payment"
import { cancelAwaitingOrderStep } from "./steps/cancel-tw-awaiting-order"
import { completePaidCartStep } from "./steps/complete-tw-paid-cart"
import { decidePaymentStep } from "./steps/decide-tw-payment"
import { findSessionLockKeyStep } from "./steps/find-tw-session-lock-key"
import { loadCartOrderStep } from "./steps/load-tw-cart-order"
import { loadPaymentSessionStep } from "./steps/load-tw-payment-session"
import { readServicePaymentStep } from "./steps/read-tw-service-payment"
import { recordRefundStep } from "./steps/record-tw-refund"
import { recordServiceFactsStep } from "./steps/record-tw-service-facts"
import { refundOrphanStep } from "./steps/refund-tw-orphan-payment"
import { reserveOrderStockStep } from "./steps/reserve-tw-cut-short-order-stock"

export const processTwPaymentWorkflowId = "process-tw-payment"

export interface ProcessTwPaymentInput {
  /** `{identifier}_{id}` of one of this plugin's providers. */
  provider: string
  /** The transaction or payment intent a delivery (or the reconciliation job) points at. */
  serviceId: string
  /** A refund that changed, for refund events. */
  refundId?: string
  /** Who runs it, kept with an order it places: a notification or webhook, or (the default) the reconciliation. */
  via?: "delivery" | "reconciliation"
  /**
   * The delivery that runs it, counted by the run's last step (no workflow of its own per delivery): what it counted
   * before (`accepted`, unless another copy of it counts that), then `verified` or `forged` by the read.
   */
  delivery?: { kind: DeliveryKind; verdicts: DeliveryVerdict[] }
}

type Applied = Extract<Decision, { kind: "apply" }>
const isApply = (decision: Decision): decision is Applied => decision.kind === "apply"

/**
 * The one path from the service to the store. A hosted notification, an
 * embedded webhook and the reconciliation job all run it: one fresh read of
 * the service, then, under a lock on the cart, the session it claims loaded
 * through `query` (or, when it is gone, its cart's order), a decision
 * (`decide`), and the money returned or recorded on the order that awaited it, or the facts
 * recorded and the order's payment recorded or the order cancelled; the cart's
 * completion runs last, outside the lock, since core's completion takes the
 * same lock itself.
 * Every step checks what already exists, so running it twice, or from a
 * delivery and the job at once, ends in the same state. A completion that
 * fails undoes the run: the facts recorded go, the payment core authorized
 * is cancelled by core's own compensation, and the delivery is not marked
 * handled, so its retry or the job runs it again from a fresh read. An
 * order cancelled or money refunded at the service stands (nothing undoes those).
 */
export const processTwPaymentWorkflow = createWorkflow(processTwPaymentWorkflowId, (input: ProcessTwPaymentInput) => {
  const observation = readServicePaymentStep({ provider: input.provider, serviceId: input.serviceId })
  const sessionId = transform({ observation }, ({ observation }) => observation?.sessionId ?? null)
  const cartId = transform({ observation }, ({ observation }) => observation?.cartId ?? null)
  // The session is loaded and decided on under the cart's lock: core's completion holds it while the order it
  // creates may still be rolled back, and a decision taken on that order would authorize a payment for none.
  const lockKey = findSessionLockKeyStep({ sessionId, cartId })
  // The lock's owner is this run: its compensation, after a completion that failed with the lock given back,
  // releases only this run's lock, never one another checkout of the cart holds by then.
  const lockOwner = transform({ input }, () => randomUUID())
  when("tw-lock", { lockKey }, ({ lockKey }) => !!lockKey).then(() => {
    acquireLockStep({ key: lockKey!, ownerId: lockOwner, timeout: 30, ttl: 120 })
  })
  const session = loadPaymentSessionStep({ sessionId })
  const cartOrder = loadCartOrderStep({ provider: input.provider, observation, session })
  const decision = decidePaymentStep({ provider: input.provider, observation, session, cartOrder })

  when("tw-refund-orphan", { decision }, ({ decision }) => decision.kind === "refund-orphan").then(() => {
    const orphan = transform({ input, observation, decision }, ({ input, observation, decision }) => ({
      provider: input.provider,
      observation: observation!,
      why: decision.kind === "refund-orphan" ? decision.why : "",
    }))
    refundOrphanStep(orphan)
  })

  when("tw-adopt-payment", { decision }, ({ decision }) => decision.kind === "adopt").then(() => {
    const adoption = transform({ input, observation, decision }, ({ input, observation, decision }) => ({
      provider: input.provider,
      observation: observation!,
      orderId: decision.kind === "adopt" ? decision.orderId : "",
      collectionId: decision.kind === "adopt" ? decision.collectionId : "",
      why: decision.kind === "adopt" ? decision.why : "",
    }))
    adoptAwaitedPaymentStep(adoption)
  })

  // An order a completion cut short may lack its stock's reservations: they are made before its payment is
  // recorded; with the stock gone, the order is cancelled and the money returned instead.
  const stock = when("tw-reserve-stock", { decision }, ({ decision }) => isApply(decision) && !!decision.reserveStock).then(() => {
    const order = transform({ session }, ({ session }) => ({ orderId: session?.order?.id ?? "" }))
    return reserveOrderStockStep(order)
  })
  const unstocked = transform({ stock }, ({ stock }) => stock?.short ?? null)
  when("tw-unstocked-order", { unstocked }, ({ unstocked }) => !!unstocked).then(() => {
    const order = transform({ session, observation, unstocked }, ({ session, observation, unstocked }) => ({
      orderId: session?.order?.id ?? "",
      label: observation?.label ?? "",
      reason: `was made, but the completion that placed the order was cut short and its stock is gone (${unstocked}): the money is returned`,
    }))
    cancelAwaitingOrderStep(order).config({ name: "cancel-tw-unstocked-order" })
    const orphan = transform({ input, observation, session }, ({ input, observation, session }) => ({
      provider: input.provider,
      observation: observation!,
      why: `its order ${session?.order?.id ?? ""} could not get its stock`,
    }))
    refundOrphanStep(orphan).config({ name: "refund-tw-unstocked-payment" })
  })

  const facts = transform({ input, observation, session }, ({ input, observation, session }) => ({
    provider: input.provider,
    sessionId: session?.id ?? "",
    observation: observation!,
  }))
  // A failed or expired payment is recorded only once its order is cancelled, so that a cancel that
  // fails leaves the session as it was, and the job (which skips final states) reads it again.
  when("tw-record-facts", { decision, unstocked }, ({ decision, unstocked }) => isApply(decision) && decision.record && !decision.cancelOrder && !unstocked).then(() => {
    recordServiceFactsStep(facts)
  })
  when("tw-authorize-session", { decision, unstocked }, ({ decision, unstocked }) => isApply(decision) && decision.authorizeSession && !unstocked).then(() => {
    authorizePaymentSessionStep({ id: facts.sessionId, context: {} })
  })
  when("tw-cancel-order", { decision }, ({ decision }) => isApply(decision) && decision.cancelOrder).then(() => {
    const order = transform({ session, observation, decision }, ({ session, observation, decision }) => ({
      orderId: session?.order?.id ?? "",
      label: observation?.label ?? "",
      reason: isApply(decision) ? decision.cancelReason : undefined,
    }))
    cancelAwaitingOrderStep(order)
  })
  when("tw-record-facts-after-cancel", { decision }, ({ decision }) => isApply(decision) && decision.record && decision.cancelOrder).then(() => {
    // The same step a second time: a workflow runs each step once under its name.
    recordServiceFactsStep(facts).config({ name: "record-tw-service-facts-after-cancel" })
  })
  when("tw-unlock", { lockKey }, ({ lockKey }) => !!lockKey).then(() => {
    releaseLockStep({ key: lockKey!, ownerId: lockOwner })
  })
  const orderId = when("tw-complete-cart", { decision }, ({ decision }) => isApply(decision) && decision.completeCart).then(() => {
    const completion = transform({ facts, session }, ({ facts, session }) => ({ ...facts, cartId: session?.cartId ?? "" }))
    return completePaidCartStep(completion)
  })

  // How the order was placed and how long after the payment, for the health page and the metrics.
  when("tw-record-placement", { orderId }, ({ orderId }) => !!orderId).then(() => {
    const placement = transform({ input, orderId, observation }, ({ input, orderId, observation }) => ({
      orderId: orderId!,
      path: input.via ?? ("reconciliation" as const),
      override: true,
      paidAt: observation?.paidAt,
    }))
    recordOrderPlacementStep(placement)
  })
  const failed = transform({ decision, observation }, ({ decision, observation }) =>
    isApply(decision) && decision.record && (observation?.action === PaymentActions.FAILED || observation?.action === PaymentActions.CANCELED)
  )
  when("tw-tally-failed-payment", { failed }, ({ failed }) => failed).then(() => {
    tallyFailedPaymentStep({ provider: input.provider })
  })

  when("tw-record-refund", { input, session }, ({ input, session }) => !!input.refundId && !!session).then(() => {
    const refund = transform({ input, session }, ({ input, session }) => ({ provider: input.provider, sessionId: session?.id ?? "", refundId: input.refundId ?? "" }))
    recordRefundStep(refund)
  })

  // What the read verified, so a delivery is recorded as handled under the status it really saw.
  const status = transform({ observation }, ({ observation }) => observation?.status ?? null)
  when("tw-tally-delivery", { input }, ({ input }) => !!input.delivery).then(() => {
    const tally = transform({ input, status }, ({ input, status }) => ({
      provider: input.provider,
      kind: input.delivery!.kind,
      // The read found what it names (an unsigned body that names nothing of this store was forged).
      verdicts: [...input.delivery!.verdicts, status ? ("verified" as const) : ("forged" as const)],
    }))
    tallyDeliveryVerdictsStep(tally)
  })
  return new WorkflowResponse({ decision, orderId, status })
})
