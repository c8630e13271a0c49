import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { readRecordedRefundStep } from "./steps/read-tw-recorded-refund"
import { recordMadeRefundStep } from "./steps/record-tw-made-refund"
import { refundAgainStep } from "./steps/refund-tw-recorded-refund-again"

export const finishTwRecordedRefundWorkflowId = "finish-tw-recorded-refund"

export interface RecordedRefund {
  /** The plugin provider's key. */
  provider: string
  /** Medusa's refund, recorded by core before its provider call. */
  refundId: string
}

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
