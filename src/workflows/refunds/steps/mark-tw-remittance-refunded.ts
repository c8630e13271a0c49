import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"

/** The money due is returned: the row leaves the admin's list of what is due. The workflow's last write. */
export const markRemittanceRefundedStep = createStep("mark-tw-remittance-refunded", async ({ id }: { id: string }, { container }) => {
  const module = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  const [row] = await module.updateTwRemittanceDues([{ id, refunded_at: new Date() }])
  return new StepResponse(row)
})
