import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type PaymentUpdate, paymentsOf, type RecordedRefundState } from "./read-tw-recorded-refund"

/** The service made the refund: the payment's data records it, as the provider call's answer would have. */
export const recordMadeRefundStep = createStep(
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
