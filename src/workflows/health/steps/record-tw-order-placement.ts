import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { forgetOrderPlacement, type OrderPlacement, recordOrderPlacement } from "../../../health/order-placements"

/** How the pipeline placed an order (`order-placements.ts`); undone (the row removed) when it was new and a later step fails. */
export const recordOrderPlacementStep = createStep(
  "record-tw-order-placement",
  async (input: OrderPlacement, { container }) => {
    const inserted = await recordOrderPlacement(container, input)
    return new StepResponse<boolean, string | null>(inserted, inserted ? input.orderId : null)
  },
  async (orderId, { container }) => {
    if (orderId) {
      await forgetOrderPlacement(container, orderId)
    }
  }
)
