import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PaymentObservation } from "../../providers/core/payment-api"
import { pluginProvider } from "../plugin-providers"

/**
 * Keeps what the read said on the session (the storefront shows it: a cvs
 * code, a failure) with the read sealed, so the completion that follows does
 * not read the service again. Goes through the payment module's public
 * `updatePaymentSession`, which hands the data to the provider's
 * `updatePayment`: an unchanged amount keeps the data and the status.
 */
async function recordServiceFacts(
  { provider, sessionId, observation }: { provider: string; sessionId: string; observation: PaymentObservation },
  { container }: { container: MedusaContainer }
) {
  const api = pluginProvider(container, provider)?.api
  if (!api) {
    return new StepResponse(undefined)
  }
  const payments = container.resolve(Modules.PAYMENT)
  const session = await payments.retrievePaymentSession(sessionId, { select: ["id", "amount", "currency_code", "data"] })
  const attestation = api.attestor.seal({ sessionId, serviceId: observation.serviceId, amount: observation.amount, status: observation.status })
  await payments.updatePaymentSession({
    id: sessionId,
    amount: session.amount,
    currency_code: session.currency_code,
    data: { ...session.data, ...observation.facts, attestation },
  })
  return new StepResponse(undefined)
}

export const recordServiceFactsStep = createStep("record-tw-service-facts", recordServiceFacts)
/** The same, placed after an awaiting order was cancelled (a workflow runs each step once under its name). */
export const recordServiceFactsAfterCancelStep = createStep("record-tw-service-facts-after-cancel", recordServiceFacts)
