import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import type { OrphanRefund, PaymentApi, PaymentObservation } from "../../../providers/core/payment-api"
import { pluginProvider } from "../../../providers/plugin-providers"

/**
 * Money paid for a session the store no longer uses goes back to the shopper:
 * at once, or, for a paid cvs code or bank transfer, recorded as due by
 * remittance for the merchant, who refunds it with the shopper's bank account
 * (`POST /admin/tw-remittances/:id/refund`).
 */
export async function returnOrphan(container: MedusaContainer, providerKey: string, api: PaymentApi, observation: PaymentObservation, why: string): Promise<OrphanRefund["kind"]> {
  const outcome = await api.refundOrphan(observation, why)
  if (outcome.kind !== "remittance") {
    return outcome.kind
  }
  const recorded = container.hasRegistration(TW_PAYMENT_SWEEP_MODULE)
  if (recorded) {
    await container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE).recordRemittanceDue({
      provider_key: providerKey,
      transaction_id: observation.serviceId,
      transaction_hid: outcome.transactionHid,
      amount: outcome.amount,
      payment_method: outcome.paymentMethod,
      session_id: observation.sessionId ?? null,
      reason: `paid after ${why}`,
    })
  }
  const where = recorded
    ? "from the admin's Remittances page, with the shopper's bank account"
    : "by remittance from the service's console (with the tw_payment_sweep module registered, the admin lists it)"
  container.resolve(ContainerRegistrationKeys.LOGGER).error(`${providerKey}: ${outcome.amount} TWD paid by ${outcome.paymentMethod} in ${outcome.transactionHid} after ${why}: refund it ${where}`)
  return outcome.kind
}

export const refundOrphanStep = createStep(
  "refund-tw-orphan-payment",
  async ({ provider, observation, why }: { provider: string; observation: PaymentObservation; why: string }, { container }) => {
    const found = pluginProvider(container, provider)
    // How the money went back ("nothing": the service holds none of it).
    return new StepResponse(found ? await returnOrphan(container, provider, found.api, observation, why) : null)
  }
)
