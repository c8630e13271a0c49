import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"

/**
 * The payment an order was placed waiting for failed or expired (cvs/atm,
 * processing card): the order is cancelled, which releases its reservations.
 */
export const cancelAwaitingOrderStep = createStep("cancel-tw-awaiting-order", async ({ orderId, label }: { orderId: string; label: string }, { container }) => {
  await cancelOrderWorkflow(container).run({ input: { order_id: orderId } })
  container.resolve(ContainerRegistrationKeys.LOGGER).info(`medusa-payment-tw: cancelled order ${orderId}: its payment (${label}) expired or failed unpaid`)
  return new StepResponse(undefined)
})
