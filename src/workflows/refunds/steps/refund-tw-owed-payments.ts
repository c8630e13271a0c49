import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../../lib/log"
import type { OwedRefund } from "../decisions/owed-refunds"
import { refundTwLatePaymentWorkflow } from "../refund-tw-late-payment"

/**
 * Each owed refund through `refund-tw-late-payment` (core's refund step, so the provider refunds at the
 * service, then the refund's transaction on the order): core's `refund-payment-workflow` would add a credit
 * line, which a cancelled order refuses after the money has left. Money returned cannot be taken back, so
 * there is nothing to compensate; a refund the service refuses (too little not yet paid out, say) fails the
 * run, and the job tries again later.
 */
export const refundOwedStep = createStep("refund-tw-owed-payments", async ({ orderId, owed }: { orderId: string; owed: OwedRefund[] }, { container }) => {
  const failed: string[] = []
  for (const refund of owed) {
    try {
      // .run(), not runAsStep: one run per owed refund, in a loop: one the service refuses neither stops nor undoes the others (money returned stays returned)
      await refundTwLatePaymentWorkflow(container).run({ input: { ...refund, order_id: orderId } })
    } catch (error) {
      failed.push(`${refund.payment_id}: ${untrusted((error as Error).message, 300)}`)
    }
  }
  if (failed.length) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Not refunded yet (tried again by the reconciliation): ${failed.join("; ")}`)
  }
  return new StepResponse(owed.map((refund) => refund.payment_id))
})
