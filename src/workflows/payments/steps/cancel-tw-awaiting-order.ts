import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"

/**
 * The payment an order was placed waiting for failed or expired (cvs/atm,
 * processing card), or the order has no payment and never will (`decide`):
 * the order is cancelled, which releases its reservations.
 */
export const cancelAwaitingOrderStep = createStep(
  "cancel-tw-awaiting-order",
  async ({ orderId, label, reason }: { orderId: string; label: string; reason?: string }, { container }) => {
    // .run(), not runAsStep: the cancel stands: undone with this run, it would reopen the order after core released its payment at the service, which no compensation restores
    await cancelOrderWorkflow(container).run({ input: { order_id: orderId } })
    // An expiry is routine; an order a crash left behind is worth the merchant's notice.
    container.resolve(ContainerRegistrationKeys.LOGGER)[reason ? "warn" : "info"](`medusa-payment-tw: cancelled order ${orderId}: its payment (${label}) ${reason ?? "expired or failed unpaid"}`)
    return new StepResponse(orderId)
  }
)
