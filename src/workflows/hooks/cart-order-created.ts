import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { type StepExecutionContext, StepResponse } from "@medusajs/framework/workflows-sdk"
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { recordOrderPlacement, forgetOrderPlacement } from "../../health/order-placements"
import { isPipelinePlacing } from "../../health/pipeline-placements"
import { untrusted } from "../../lib/log"

/**
 * An order placed by core's cart completion, recorded from inside it (for the health page): as placed by the
 * shopper's return, unless the payment pipeline is completing that cart, whose own step records its path.
 * Undone with the completion; a failure to record is logged and never fails the shopper's checkout.
 */
type Recorded = StepResponse<void, string | null>

// Core declares `orderCreated` inside a `when` block, which its types do not carry (2.21); typed from its `createHook` call.
const hooks = completeCartWorkflow.hooks as typeof completeCartWorkflow.hooks & {
  orderCreated: (
    invoke: (input: { order_id: string; cart_id: string }, context: StepExecutionContext) => Promise<Recorded>,
    compensate: (orderId: string | null, context: StepExecutionContext) => Promise<void>
  ) => void
}

hooks.orderCreated(
  async ({ order_id, cart_id }, { container }) => {
    if (isPipelinePlacing(cart_id)) {
      return new StepResponse(undefined, null)
    }
    try {
      const inserted = await recordOrderPlacement(container, { orderId: order_id, path: "return", override: false })
      return new StepResponse(undefined, inserted ? order_id : null)
    } catch (error) {
      container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: how order ${order_id} was placed is not recorded: ${untrusted((error as Error).message, 300)}`)
      return new StepResponse(undefined, null)
    }
  },
  async (orderId, { container }) => {
    if (orderId) {
      await forgetOrderPlacement(container, orderId)
    }
  }
)
