import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { PaymentEvents } from "@medusajs/framework/utils"
import { addOrderTransactionStep, emitEventStep, refundPaymentStep } from "@medusajs/medusa/core-flows"

export const refundTwLatePaymentWorkflowId = "refund-tw-late-payment"

export interface RefundTwLatePaymentInput {
  payment_id: string
  /** The cancelled order the payment was recorded on. */
  order_id: string
  amount: number
  created_by?: string
}

/**
 * Returns a payment recorded on an order after the order was cancelled (a
 * cvs/atm code paid late; a card payment whose refund core's cancel could not
 * make, from `refund-tw-cancelled-order`): core's refund step, then the refund's transaction
 * on the order and the `payment.refunded` event, as core's refund workflow does. That workflow is not
 * used as a whole because it adds credit lines to the order, which a cancelled
 * order refuses after the money has left.
 */
export const refundTwLatePaymentWorkflow = createWorkflow(refundTwLatePaymentWorkflowId, (input: RefundTwLatePaymentInput) => {
  const payment = refundPaymentStep(transform({ input }, ({ input }) => ({ payment_id: input.payment_id, amount: input.amount, created_by: input.created_by })))
  const transactions = transform({ input, payment }, ({ input, payment }) =>
    (payment.refunds ?? []).map((refund) => ({
      order_id: input.order_id,
      amount: -input.amount,
      currency_code: payment.currency_code,
      reference: "refund",
      reference_id: refund.id,
    }))
  )
  addOrderTransactionStep(transactions)
  emitEventStep({ eventName: PaymentEvents.REFUNDED, data: transform({ payment }, ({ payment }) => ({ id: payment.id })) })
  return new WorkflowResponse(payment)
})
