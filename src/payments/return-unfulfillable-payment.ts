import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import type { PaymentObservation } from "../providers/core/payment-api"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { pluginProvider } from "../providers/plugin-providers"
import { placedOrder } from "../workflows/payments/steps/complete-tw-paid-cart"
import { returnOrphan } from "../workflows/payments/steps/refund-tw-orphan-payment"

export interface UnfulfillablePayment {
  cartId: string
  sessionId: string
  provider: string
  observation: PaymentObservation
  why: string
}

/**
 * The store cannot place the order of a paid cart (out of stock): the money
 * goes back, and nothing the store keeps can turn it into an order later.
 * Under the cart's lock, which core's completion takes too: first the
 * session's sealed read is dropped (a completion would otherwise authorize
 * from it without reading), then the refund, then the read that shows it on
 * the session. An order the shopper's own completion placed meanwhile wins:
 * the money stands for it. A subscription whose first order this was ends
 * with it; the subscription workflow then cancels it at the service.
 */
export async function returnUnfulfillablePayment(container: MedusaContainer, { cartId, sessionId, provider, observation, why }: UnfulfillablePayment) {
  const api = pluginProvider(container, provider)?.api
  if (!api) {
    return
  }
  const payments = container.resolve(Modules.PAYMENT)
  const returned = await container.resolve(Modules.LOCKING).execute(
    cartId,
    async () => {
      if (await placedOrder(container, cartId)) {
        return false
      }
      const record = async (facts: Record<string, unknown>) => {
        const session = await payments.retrievePaymentSession(sessionId, { select: ["id", "amount", "currency_code", "data"] })
        // Null, not left out: the module merges session data, so a missing key would keep the seal.
        await payments.updatePaymentSession({ id: sessionId, amount: session.amount, currency_code: session.currency_code, data: { ...session.data, ...facts, attestation: null } })
      }
      await record({})
      await returnOrphan(container, provider, api, observation, why)
      const after = await api.observe(observation.serviceId)
      if (after) {
        await record(after.facts)
      }
      return true
    },
    { timeout: 30 }
  )
  if (returned) {
    await endSubscriptionOfSession(container, sessionId, why)
  }
}

async function endSubscriptionOfSession(container: MedusaContainer, sessionId: string, why: string) {
  if (!container.hasRegistration(TW_SUBSCRIPTION_MODULE)) {
    return
  }
  const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const [row] = await module.listTwSubscriptions({ payment_session_id: sessionId, status: ["pending", "pending_first_charge", "active", "retrying"] }, { take: 1, select: ["id"] })
  if (row) {
    await module.updateTwSubscriptions({ id: row.id, status: "cancelled", cancel_reason: `Its first order could not be placed: ${why}`, cancelled_at: new Date(), next_charge_at: null })
  }
}
