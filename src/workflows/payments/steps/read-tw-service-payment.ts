import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PaymentObservation } from "../../../providers/core/payment-api"
import { pluginProvider } from "../../../providers/plugin-providers"

export interface ReadServicePaymentInput {
  /** `{identifier}_{id}` of one of this plugin's providers. */
  provider: string
  /** The transaction or payment intent to read. */
  serviceId: string
}

/**
 * The one fresh read every decision of the pipeline is made on. A service
 * error fails the run (nothing has changed yet), so the delivery is retried.
 */
export const readServicePaymentStep = createStep(
  "read-tw-service-payment",
  async ({ provider, serviceId }: ReadServicePaymentInput, { container }) => {
    const found = pluginProvider(container, provider)
    if (!found) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `No medusa-payment-tw provider "${provider}" is registered in the payment module.`)
    }
    const observation: PaymentObservation | null = (await found.api.observe(serviceId)) ?? null
    return new StepResponse(observation)
  }
)
