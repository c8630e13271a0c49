import type { PaymentProviderContext } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PaymentObservation } from "../../../providers/core/payment-api"
import { providerId } from "../../../providers/core/provider-keys"
import { ADOPTED_CONTEXT_KEY, PAID, sealAdoptedTerms } from "../../../providers/hosted-checkout/public"
import { hostedApi } from "../../../providers/plugin-hosted-api"

export interface AdoptAwaitedPaymentInput {
  provider: string
  observation: PaymentObservation
  orderId: string
  collectionId: string
  why: string
}

/**
 * Records a paid transaction whose session is gone on the order that awaited
 * it (`decide`'s adoption): a session of the hosted provider opened on the
 * order's collection for that very transaction (sealed from a fresh read,
 * nothing created at the service), authorized and so captured. A session an
 * earlier run opened for it is used again. Not undone: the money is the
 * order's; a run that stops half-way is finished by the next read.
 */
export const adoptAwaitedPaymentStep = createStep(
  "adopt-tw-awaited-payment",
  async ({ provider, observation, orderId, collectionId, why }: AdoptAwaitedPaymentInput, { container }) => {
    const api = hostedApi(container, provider)
    const tx = await api.client.transactions.retrieve(observation.serviceId)
    if (!PAID.has(tx.status) || tx.refundAmount || tx.amount !== observation.amount || !observation.sessionId) {
      throw new MedusaError(MedusaError.Types.CONFLICT, `Transaction ${tx.transactionHid} changed since it was read (${tx.status}); it is read again.`)
    }
    const payments = container.resolve(Modules.PAYMENT)
    const opened = (await payments.listPaymentSessions({ payment_collection_id: collectionId })).find((session) => session.data?.transactionId === tx.id)
    const session =
      opened ??
      (await payments.createPaymentSession(collectionId, {
        provider_id: providerId(provider),
        amount: tx.amount,
        currency_code: "twd",
        data: {},
        // The sealed terms ride in the context, which only server code can set (as a renewal's do).
        context: { [ADOPTED_CONTEXT_KEY]: sealAdoptedTerms(api.attestor, tx, observation.sessionId) } as PaymentProviderContext,
      }))
    await payments.authorizePaymentSession(session.id, {})
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-tw: ${observation.label} recorded on order ${orderId}: ${why}`)
    return new StepResponse(session.id)
  }
)
