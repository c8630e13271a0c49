import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentWebhookEvents } from "@medusajs/framework/utils"
import { type HostedNotification, parseNotification } from "../lib/hosted"
import { untrusted } from "../lib/log"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../modules/tw-subscription"
import { handleDeliveryOnce } from "../workflows/delivery-claims"
import { pluginProvider } from "../workflows/plugin-providers"
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
 * The subscription branch of the pipeline. Hosted notifications about
 * recurring payments are unsigned hints: they only say which of the store's
 * subscriptions to read again (by S number, or by the checkout session the
 * `customId` names); `process-tw-subscription` then acts on its own read.
 * Notifications about one subscription take turns, and one counts as done
 * only when that read bore it out (`verifiedBySync`), so a forged one never
 * stands in for the real one. One-time payments stay with `tw-payment-webhook`.
 */
export default async function twSubscriptionWebhookHandler({ event, container }: SubscriberArgs<ProviderWebhookPayload>) {
  const provider = pluginProvider(container, event.data.provider)
  if (provider?.identifier !== "hosted-checkout") {
    return
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const payload = event.data.payload
  // The Redis event bus serialises the raw body as `{ type: "Buffer", data }`.
  const raw = payload.rawData as unknown as { type?: string; data?: number[] } | Buffer | undefined
  const rawBody = Buffer.isBuffer(raw) ? raw : raw?.type === "Buffer" && Array.isArray(raw.data) ? Buffer.from(raw.data) : undefined
  const body = rawBody?.length ? rawBody : payload.data
  let notification: HostedNotification
  try {
    notification = parseNotification(body)
  } catch {
    return // tw-payment-webhook logs malformed bodies
  }
  if ("merchantId" in notification && notification.merchantId !== undefined && notification.merchantId !== (provider.api as { options?: { merchantId?: string } }).options?.merchantId) {
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
    const outcome = await handleDeliveryOnce(container, { provider: provider.key, scope: `subscription:${row.id}`, key: `subscription:${about.key}`, handle })
    if (outcome === "repeat") {
      logger.debug(`${provider.key}: ${notification.purpose} notification ${untrusted(about.key)} skipped: a repeat`)
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

export const config: SubscriberConfig = {
  event: PaymentWebhookEvents.WebhookReceived,
  context: { subscriberId: "medusa-payment-tw-subscription-webhook" },
}
