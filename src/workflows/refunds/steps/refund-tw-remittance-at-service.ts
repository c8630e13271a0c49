import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { RemitInfo } from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../../../providers/plugin-hosted-api"

/**
 * The refund by remittance at the service, from a fresh read: money the read
 * shows refunded already is not sent again. A refund is final: nothing to
 * compensate.
 */
export const refundRemittanceAtServiceStep = createStep(
  "refund-tw-remittance-at-service",
  async ({ id, providerKey, transactionId, remitInfo }: { id: string; providerKey: string; transactionId: string; remitInfo: RemitInfo }, { container }) => {
    const made = await hostedApi(container, providerKey).refundByRemittance(transactionId, remitInfo, id)
    return new StepResponse({ made })
  }
)
