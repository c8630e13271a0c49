import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { authorizePaymentSessionForOrderWorkflow } from "@medusajs/medusa/core-flows"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { subscriptionModule } from "../../../subscriptions/subscription-module"
import type { ObservedPeriod } from "../decisions/subscription-state"
import { settlePeriod } from "../../../subscriptions/settle-period"

export interface CaptureFirstOrderInput {
  subscriptionId: string
  providerKey: string
  sessionId: string
  /** The checkout session's data as loaded. */
  data: Record<string, unknown>
  period: ObservedPeriod
  periodId: string
  orderId: string
}

/**
 * Period 1 of a later first charge was paid: its transaction becomes the
 * session's, sealed like the payment pipeline's reads, and the session
 * awaiting payment is authorized for the order (captured, with the order's
 * transaction), as a paid cvs code is.
 */
async function captureFirstOrder(container: MedusaContainer, { providerKey, sessionId, data, period }: CaptureFirstOrderInput) {
  const payments = container.resolve(Modules.PAYMENT)
  const api = hostedApi(container, providerKey)
  const session = await payments.retrievePaymentSession(sessionId, { select: ["id", "amount", "currency_code", "data", "status"] })
  if (session.status !== "pending_authorization") {
    return
  }
  await payments.updatePaymentSession({
    id: sessionId,
    amount: session.amount,
    currency_code: session.currency_code,
    data: {
      ...data,
      transactionId: period.transactionId,
      transactionHid: period.transactionHid,
      status: "charged",
      paidAt: period.paidAt,
      attestation: api.attestor.seal({ sessionId, serviceId: period.transactionId, amount: period.amount, status: "charged" }),
    },
  })
  // .run(), not runAsStep: inside settlePeriod, whose failure is reported for the next run, not thrown; and the capture of the service's money is never undone
  await authorizePaymentSessionForOrderWorkflow(container).run({ input: { payment_session_id: sessionId } })
}

/** The first order's payment, then period 1 names it as paid. The money was taken by the service: never undone. */
export const captureTwSubscriptionFirstOrderStep = createStep("capture-tw-subscription-first-order", async (input: CaptureFirstOrderInput, { container }) => {
  const failed = await settlePeriod(container, input.subscriptionId, 1, async () => {
    await captureFirstOrder(container, input)
    await subscriptionModule(container).updateTwSubscriptionPeriods({ id: input.periodId, order_id: input.orderId, order_paid: true })
  })
  return new StepResponse({ failed })
})
