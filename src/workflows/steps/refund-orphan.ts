import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PaymentObservation } from "../../providers/core/payment-api"
import { pluginProvider } from "../plugin-providers"

/** Money paid for a session the store no longer uses goes back to the shopper. */
export const refundOrphanStep = createStep(
  "refund-tw-orphan-payment",
  async ({ provider, observation, why }: { provider: string; observation: PaymentObservation; why: string }, { container }) => {
    await pluginProvider(container, provider)?.api.refundOrphan(observation, why)
    return new StepResponse(undefined)
  }
)
