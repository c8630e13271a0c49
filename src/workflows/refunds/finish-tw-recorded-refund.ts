import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, refundPaymentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { untrusted } from "../../lib/log"
import { pluginProvider } from "../../providers/plugin-providers"

export const finishTwRecordedRefundWorkflowId = "finish-tw-recorded-refund"

export interface RecordedRefund {
  /** The plugin provider's key. */
  provider: string
  /** Medusa's refund, recorded by core before its provider call. */
  refundId: string
}

export interface RecordedRefundState {
  /**
   * `confirmed`: its provider call answered (nothing to do); `made`: the service made it, the payment's data
   * never heard; `not made`: the service shows no such refund; `gone`: no such refund of this plugin.
   */
  state: "gone" | "confirmed" | "made" | "not made"
  paymentId?: string
  amount?: number
  /** For `made`: the payment's data with the service's refund, and as it was before. */
  data?: Record<string, unknown>
  previous?: Record<string, unknown>
}

type PaymentUpdate = Parameters<IPaymentModuleService["updatePayment"]>[0]
const paymentsOf = (container: MedusaContainer): IPaymentModuleService => container.resolve(Modules.PAYMENT)

const readRecordedRefundStep = createStep("read-tw-recorded-refund", async ({ provider, refundId }: RecordedRefund, { container }) => {
  const api = pluginProvider(container, provider)?.api
  const [refund] = await paymentsOf(container).listRefunds({ id: refundId }, { relations: ["payment"] })
  const payment = refund?.payment
  if (!api || !payment) {
    return new StepResponse<RecordedRefundState>({ state: "gone" })
  }
  const previous = (payment.data ?? {}) as Record<string, unknown>
  if (api.hasRefund(refundId, previous)) {
    return new StepResponse<RecordedRefundState>({ state: "confirmed", paymentId: payment.id })
  }
  const data = await api.refundMade(refundId, previous)
  return new StepResponse<RecordedRefundState>({ state: data ? "made" : "not made", paymentId: payment.id, amount: Number(refund.amount), data, previous })
})

/** The service made the refund: the payment's data records it, as the provider call's answer would have. */
const recordMadeRefundStep = createStep(
  "record-tw-made-refund",
  async ({ paymentId, data, previous }: RecordedRefundState, { container }) => {
    // The module stores `data` as given; its DTO type leaves the field out.
    await paymentsOf(container).updatePayment({ id: paymentId!, data } as PaymentUpdate)
    return new StepResponse(undefined, { id: paymentId!, data: previous })
  },
  async (before, { container }) => {
    if (before) {
      await paymentsOf(container).updatePayment(before as PaymentUpdate)
    }
  }
)

/**
 * The service never made it: the recorded refund is withdrawn and made again through core's
 * `refund-payment-workflow`, so the refund, the payment collection's totals and the order's transaction come
 * out as after an uninterrupted refund. When the service refuses it (a cvs payment without the shopper's
 * bank account, too little not yet paid out) or its answer is unclear, core removes the new refund and this
 * one stays withdrawn: the store shows no refund, as for any refund its provider refused, and the merchant
 * refunds again. Never a second refund: the withdrawn one was never made.
 */
const refundAgainStep = createStep(
  "refund-tw-recorded-refund-again",
  async ({ refundId, paymentId, amount }: { refundId: string; paymentId: string; amount: number }, { container }) => {
    await paymentsOf(container).deleteRefunds([refundId])
    try {
      await refundPaymentWorkflow(container).run({ input: { payment_id: paymentId, amount, note: `Made again: refund ${refundId} was recorded but never reached the payment service` } })
    } catch (error) {
      return new StepResponse({ refunded: false, reason: untrusted((error as Error).message, 300) }, refundId)
    }
    return new StepResponse({ refunded: true, reason: undefined as string | undefined }, refundId)
  }
)

/**
 * Core's payment module records a refund, then calls the provider: a crash in between leaves a refund the
 * store shows and the service never made, and a crash after the call leaves one the payment's data does
 * not know. The payments reconciliation runs this for every refund of this plugin's payments whose data
 * does not hold it, once it is older than any call in flight. Under a lock on the refund, so an overlapping
 * run finds it settled.
 */
export const finishTwRecordedRefundWorkflow = createWorkflow(finishTwRecordedRefundWorkflowId, (input: RecordedRefund) => {
  const lockKey = transform({ input }, ({ input }) => `medusa-payment-tw:recorded-refund:${input.refundId}`)
  acquireLockStep({ key: lockKey, timeout: 30, ttl: 300 })
  const found = readRecordedRefundStep(input)
  when({ found }, ({ found }) => found.state === "made").then(() => {
    recordMadeRefundStep(found)
  })
  const again = when({ found }, ({ found }) => found.state === "not made").then(() => {
    const retry = transform({ input, found }, ({ input, found }) => ({ refundId: input.refundId, paymentId: found.paymentId!, amount: found.amount! }))
    return refundAgainStep(retry)
  })
  releaseLockStep({ key: lockKey })
  return new WorkflowResponse(transform({ found, again }, ({ found, again }) => ({ state: found.state, paymentId: found.paymentId, ...(again ?? {}) })))
})
