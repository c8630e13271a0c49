import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { InvalidRequestError, PaymentServiceError, UnknownOutcomeError } from "../../lib/http"
import { toMedusaError } from "../../providers/core/errors"
import { hostedApi } from "./hosted-api"
import { subscriptionModule } from "./renewal-order"
import { syncSubscription } from "./sync-subscription"

const FINAL = new Set(["stopped", "completed", "cancelled"])

/**
 * Cancels a subscription: the service first (`PUT /subscriptions/{S number}`),
 * then the store. When the service refuses (`V0002`: a charge is running,
 * or it is already cancelled, completed or stopped) nothing changes in the
 * store and the error says so. Runs under the subscription's lock, so it
 * never interleaves with a period being recorded.
 */
export async function cancelSubscription(container: MedusaContainer, subscriptionId: string, reason: string | undefined, by: "admin" | "customer") {
  const module = subscriptionModule(container)
  let row = await module.retrieveTwSubscription(subscriptionId)
  if (FINAL.has(row.status)) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${row.id} is already ${row.status}; nothing was changed.`)
  }
  if (!row.service_subscription_id && row.status !== "pending") {
    // A monthly checkout's S number arrives with its notifications; read once more before giving up.
    await syncSubscription(container, { subscriptionId })
    row = await module.retrieveTwSubscription(subscriptionId)
  }
  const locking = container.resolve(Modules.LOCKING)
  await locking.execute(
    `medusa-payment-tw:subscription:${subscriptionId}`,
    async () => {
      const current = await module.retrieveTwSubscription(subscriptionId)
      if (FINAL.has(current.status)) {
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${current.id} is already ${current.status}; nothing was changed.`)
      }
      if (current.service_subscription_id) {
        await cancelAtService(container, current.provider_key, current.service_subscription_id, reason)
      } else if (current.status !== "pending") {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `The payment service has not yet told the store the number of subscription ${current.id}; nothing was changed. Try again in a minute.`
        )
      }
      await module.updateTwSubscriptions({
        id: current.id,
        status: "cancelled",
        cancel_reason: reason ?? (by === "customer" ? "Cancelled by the customer" : "Cancelled by the store"),
        cancelled_at: new Date(),
        next_charge_at: null,
      })
    },
    { timeout: 60 }
  )
  return module.retrieveTwSubscription(subscriptionId)
}

async function cancelAtService(container: MedusaContainer, providerKey: string, hid: string, reason: string | undefined) {
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
