import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { pluginProvider } from "../../../providers/plugin-providers"

/** A refund settled (or failed) at the service after Medusa created it: the payment keeps its current status. */
export const recordRefundStep = createStep(
  "record-tw-refund",
  async ({ provider, sessionId, refundId }: { provider: string; sessionId: string; refundId: string }, { container }) => {
    const api = pluginProvider(container, provider)?.api
    const payments = container.resolve(Modules.PAYMENT)
    const [payment] = await payments.listPayments({ payment_session_id: sessionId }, { select: ["id", "data"] })
    if (!api?.refundUpdate || !payment) {
      return new StepResponse(undefined)
    }
    const data = await api.refundUpdate(refundId, payment.data ?? {})
    // The module stores `data` as given; its DTO type leaves the field out.
    await payments.updatePayment({ id: payment.id, data } as Parameters<typeof payments.updatePayment>[0])
    return new StepResponse(undefined)
  }
)
