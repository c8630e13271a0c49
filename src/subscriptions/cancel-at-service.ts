import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { InvalidRequestError, PaymentServiceError, UnknownOutcomeError } from "../lib/http"
import { toMedusaError } from "../providers/core/medusa-errors"
import { hostedApi } from "../providers/plugin-hosted-api"

/**
 * `PUT /subscriptions/{S number}`. A refusal (`V0002`) or an unclear answer
 * is read back before anything is said: an answer that did cancel is success,
 * and nothing is ever sent twice blindly (the API has no idempotency).
 */
export async function cancelAtService(container: MedusaContainer, providerKey: string, hid: string, reason: string | undefined) {
  const api = hostedApi(container, providerKey)
  try {
    await api.client.subscriptions.cancel(hid, reason ? { reason } : {})
  } catch (error) {
    if (error instanceof InvalidRequestError && error.code === "V0002") {
      const now = await api.client.subscriptions.retrieve(hid).catch(() => undefined)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        now?.status === "active" || now?.status === "retrying" || now?.status === "trialing"
          ? `The payment service cannot cancel subscription ${hid} right now: a charge is in progress. Nothing was changed; try again in a minute.`
          : `The payment service cannot cancel subscription ${hid}: it is ${now?.status ?? "no longer cancellable"} (already cancelled, completed or stopped). Nothing was changed in the store; it is brought up to date at the next reconciliation.`
      )
    }
    if (error instanceof UnknownOutcomeError || (error instanceof PaymentServiceError && error.retryable)) {
      // No idempotency: read before deciding, never send again blindly.
      const now = await api.client.subscriptions.retrieve(hid).catch(() => undefined)
      if (now?.status === "cancelled") {
        return
      }
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `The cancellation of subscription ${hid} got no clear answer and it is still ${now?.status ?? "unknown"}; nothing was changed. Try again.`)
    }
    throw toMedusaError(`Cancelling subscription ${hid}`, error)
  }
}
