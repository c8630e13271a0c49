import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { Delivery } from "../providers/core/payment-api"
import { isSubscriptionPeriod } from "../workflows/payments/decisions/payment-decision"

/**
 * Whether a delivery is a subscription's later period, decided from the
 * notification and the store alone, without reading the service: the session
 * it names is a subscription's checkout and the transaction is not the
 * page's. The payment decision would ignore such a read anyway, and
 * `handleSubscriptionDelivery` reads the service itself (`process-tw-subscription`).
 * A forged notification gains nothing here: skipping does nothing in the
 * store and claims nothing, so a real notification of that transaction and
 * state (naming its real session) is still taken by the pipeline.
 */
export async function leftToSubscription(container: MedusaContainer, delivery: Delivery): Promise<boolean> {
  if (!delivery.subscriptionSession) {
    return false
  }
  const [session] = await container.resolve(Modules.PAYMENT).listPaymentSessions({ id: delivery.subscriptionSession }, { select: ["id", "data"] })
  return !!session && isSubscriptionPeriod(session.data ?? {}, delivery.serviceId)
}
