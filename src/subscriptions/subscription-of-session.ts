import type { MedusaContainer } from "@medusajs/framework/types"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"

/** The store's subscription whose checkout is this payment session, if any (every period carries that session's id). */
export async function subscriptionOfSession(container: MedusaContainer, sessionId: string): Promise<string | undefined> {
  // A store that registered only the providers has no subscriptions module.
  if (!sessionId.startsWith("payses_") || !container.hasRegistration(TW_SUBSCRIPTION_MODULE)) {
    return undefined
  }
  const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const [row] = await module.listTwSubscriptions({ payment_session_id: sessionId }, { take: 1, select: ["id"] })
  return row?.id
}
