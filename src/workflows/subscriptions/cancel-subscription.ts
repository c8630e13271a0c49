import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { cancelAtService } from "./cancel-at-service"
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
      } else {
        await releaseCheckout(container, current)
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

/**
 * A checkout not yet paid cannot be cancelled at the service (`V0002`) and
 * its page stays payable: the store drops the checkout's payment session, so
 * the cart cannot be completed with it and a page paid later is an orphan
 * (refunded; the subscription it started is cancelled by the next sync).
 * Under the cart's lock, so no completion is half-way; a first order placed
 * meanwhile means the subscription has started after all.
 */
async function releaseCheckout(container: MedusaContainer, row: { id: string; cart_id: string; payment_session_id: string | null }) {
  if (!row.payment_session_id) {
    return
  }
  const sessionId = row.payment_session_id
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  await container.resolve(Modules.LOCKING).execute(
    row.cart_id,
    async () => {
      const { data: placed } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: row.cart_id } })
      if (placed.length) {
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${row.id} has just started (its first order was placed); nothing was changed. Try again in a minute.`)
      }
      const payments = container.resolve(Modules.PAYMENT)
      const [session] = await payments.listPaymentSessions({ id: sessionId }, { select: ["id"] })
      if (session) {
        await payments.deletePaymentSession(sessionId)
      }
    },
    { timeout: 30 }
  )
}
