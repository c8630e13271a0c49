import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { pluginProvider } from "../../../providers/plugin-providers"
import type { RecordedRefund } from "../finish-tw-recorded-refund"

export interface RecordedRefundState {
  /**
   * `confirmed`: its provider call answered (nothing to do); `made`: the service made it, the payment's data
   * never heard; `not made`: the service shows no such refund; `gone`: no such refund of this plugin.
   */
  state: "gone" | "confirmed" | "made" | "not made"
  paymentId?: string
  amount?: number
  /** For `made`: the payment's data with the service's refund, and as it was before. */
  data?: Record<string, unknown>
  previous?: Record<string, unknown>
}

export type PaymentUpdate = Parameters<IPaymentModuleService["updatePayment"]>[0]
export const paymentsOf = (container: MedusaContainer): IPaymentModuleService => container.resolve(Modules.PAYMENT)

export const readRecordedRefundStep = createStep("read-tw-recorded-refund", async ({ provider, refundId }: RecordedRefund, { container }) => {
  const api = pluginProvider(container, provider)?.api
  const [refund] = await paymentsOf(container).listRefunds({ id: refundId }, { relations: ["payment"] })
  const payment = refund?.payment
  if (!api || !payment) {
    return new StepResponse<RecordedRefundState>({ state: "gone" })
  }
  const previous = (payment.data ?? {}) as Record<string, unknown>
  if (api.hasRefund(refundId, previous)) {
    return new StepResponse<RecordedRefundState>({ state: "confirmed", paymentId: payment.id })
  }
  const data = await api.refundMade(refundId, previous)
  return new StepResponse<RecordedRefundState>({ state: data ? "made" : "not made", paymentId: payment.id, amount: Number(refund.amount), data, previous })
})
