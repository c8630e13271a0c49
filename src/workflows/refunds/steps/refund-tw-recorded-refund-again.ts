import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { refundPaymentWorkflow } from "@medusajs/medusa/core-flows"
import { untrusted } from "../../../lib/log"
import { paymentsOf } from "./read-tw-recorded-refund"

/**
 * The service never made it: the recorded refund is withdrawn and made again through core's
 * `refund-payment-workflow`, so the refund, the payment collection's totals and the order's transaction come
 * out as after an uninterrupted refund. When the service refuses it (a cvs payment without the shopper's
 * bank account, too little not yet paid out) or its answer is unclear, core removes the new refund and this
 * one stays withdrawn: the store shows no refund, as for any refund its provider refused, and the merchant
 * refunds again. Never a second refund: the withdrawn one was never made.
 */
export const refundAgainStep = createStep(
  "refund-tw-recorded-refund-again",
  async ({ refundId, paymentId, amount }: { refundId: string; paymentId: string; amount: number }, { container }) => {
    await paymentsOf(container).deleteRefunds([refundId])
    try {
      // .run(), not runAsStep: the service's refusal is caught and answered as `refunded: false`, not a failure of the run, and the withdrawn refund stays withdrawn
      await refundPaymentWorkflow(container).run({ input: { payment_id: paymentId, amount, note: `Made again: refund ${refundId} was recorded but never reached the payment service` } })
    } catch (error) {
      return new StepResponse({ refunded: false, reason: untrusted((error as Error).message, 300) }, refundId)
    }
    return new StepResponse({ refunded: true, reason: undefined as string | undefined }, refundId)
  }
)
