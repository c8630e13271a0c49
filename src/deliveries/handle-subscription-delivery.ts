import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { HostedNotification } from "../lib/hosted"
import { untrusted } from "../lib/log"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { handleDeliveryOnce } from "./delivery-claims"
import type { PluginProvider } from "../providers/plugin-providers"
import { hostedApi } from "../providers/plugin-hosted-api"
import { processTwSubscriptionWorkflow } from "../workflows/subscriptions/process-tw-subscription"

/** Which subscription a notification is about, and what makes it one delivery (a repeat of a verified one is skipped). */
function subscriptionOf(notification: HostedNotification): { hid?: string; sessionId?: string; key: string } | undefined {
  switch (notification.purpose) {
    case "charge":
      if (notification.action !== "subscription" && !notification.subscriptionId) {
        return undefined
      }
      // A saved card's subscription (token payments) has no customId: its orderId is the checkout's session.
      return { hid: notification.subscriptionId, sessionId: notification.customId ?? notification.orderId, key: `charge:${notification.id}:${notification.status}` }
    case "schedule_subscription":
      return { hid: notification.subscriptionId, sessionId: notification.customId, key: `schedule:${notification.id}:${notification.success}` }
    case "subscription_cancelled":
      return { hid: notification.subscriptionId, key: `cancelled:${notification.subscriptionId}` }
    case "subscription_retry":
      return { hid: notification.subscriptionId, key: `retry:${notification.subscriptionId}:${notification.period ?? ""}:${notification.outcome}:${notification.retryAttemptNumber ?? ""}` }
    default:
      return undefined
  }
}

/**
 * The subscription branch of the pipeline, given the notification the
 * provider's API parsed once for both branches. Hosted notifications about
 * recurring payments are unsigned hints: they only say which of the store's
 * subscriptions to read again (by S number, or by the checkout session the
 * `customId` names); `process-tw-subscription` then acts on its own read.
 * Notifications about one subscription take turns, and one counts as done
 * only when that read bore it out (`verifiedBySync`), so a forged one never
 * stands in for the real one. One-time payments are `handlePaymentDelivery`'s.
 */
export async function handleSubscriptionDelivery(container: MedusaContainer, provider: PluginProvider, notification: HostedNotification): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  if ("merchantId" in notification && notification.merchantId !== undefined && notification.merchantId !== hostedApi(container, provider.key).options.merchantId) {
    return
  }
  const about = subscriptionOf(notification)
  if (!about) {
    return
  }
  const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
  const [byHid] = about.hid ? await module.listTwSubscriptions({ service_subscription_id: about.hid }, { take: 1 }) : []
  const [bySession] = !byHid && about.sessionId?.startsWith("payses_") ? await module.listTwSubscriptions({ payment_session_id: about.sessionId }, { take: 1 }) : []
  const row = byHid ?? bySession
  if (!row) {
    logger.info(`${provider.key}: ${notification.purpose} notification for ${untrusted(about.hid ?? about.sessionId ?? "?")}: no subscription of this store`)
    return
  }
  const handle = async (): Promise<string[]> => {
    const { result } = await processTwSubscriptionWorkflow(container).run({ input: { subscriptionId: row.id, hint: row.service_subscription_id ? undefined : about.hid } })
    return (await verifiedBySync(module, row.id, result.status, notification)) ? [`subscription:${about.key}`] : []
  }
  try {
    const outcome = await handleDeliveryOnce(container, { provider: provider.key, scope: `subscription:${row.id}`, key: `subscription:${about.key}`, handle, delayMs: provider.deliveries.delayMs })
    if (outcome === "repeat" || outcome === "covered") {
      logger.debug(`${provider.key}: ${notification.purpose} notification ${untrusted(about.key)} skipped: ${outcome === "repeat" ? "a repeat" : "a read made after it arrived already acted on it"}`)
    }
  } catch (error) {
    logger.warn(`${provider.key}: subscription ${row.id} not brought up to date yet: ${untrusted((error as Error).message, 300)}`)
    throw error
  }
}

/**
 * Whether the sync's fresh read, as the store now records it, bears out what
 * the unsigned notification said, so that its repeats can be skipped unread:
 * a charge's transaction in a period that is paid (or failed, for a failed
 * charge), or the subscription cancelled. Schedule and retry notifications
 * say nothing the rows can confirm, so each of them is read again.
 */
async function verifiedBySync(module: TwSubscriptionModuleService, id: string, status: string, notification: HostedNotification): Promise<boolean> {
  if (notification.purpose === "subscription_cancelled") {
    return status === "cancelled"
  }
  if (notification.purpose !== "charge") {
    return false
  }
  const [period] = await module.listTwSubscriptionPeriods({ subscription_id: id, transaction_id: notification.id }, { take: 1 })
  if (!period) {
    return false
  }
  return period.status === "paid" ? notification.status === "charged" || notification.status === "claimed" : notification.status === "failed"
}
