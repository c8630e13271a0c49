import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { type HostedNotification, parseNotification, type TokenNotification } from "../../lib/hosted"
import { untrusted } from "../../lib/log"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../modules/tw-saved-card"
import { BINDING_TIMED_OUT, bindingTimedOut } from "../../modules/tw-saved-card/binding-state"
import { providerId } from "../../providers/core/provider-keys"
import { claimDelivery } from "../delivery-claims"
import type { PluginProvider } from "../plugin-providers"
import { hostedApi } from "../subscriptions/hosted-api"

/** The card a token notification changed, so its customer's account holder can be brought in line. */
export interface BindingChange {
  cardId: string
  customerId: string
  providerId: string
  status: "active" | "failed"
}

/** Whether a hosted notification body is a `token` one, without parsing it fully (the intake's switch). */
export function isTokenNotification(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { purpose?: unknown }).purpose === "token"
}

/**
 * Why a binding failed, as the customer reads it. The notification is
 * unsigned: only a code-shaped message is kept, anything else becomes a
 * generic reason.
 */
export function bindingFailureReason(message: string | undefined): string {
  if (message === "3DS_ABANDONED") {
    return "3-D Secure was not completed within 10 minutes (3DS_ABANDONED)"
  }
  if (message && /^[A-Za-z0-9_]{1,40}$/.test(message)) {
    return `the card was not accepted (${message})`
  }
  return "the card was not accepted"
}

/**
 * A `token` notification (spec 6.3), the only delivery of a card token. It
 * is unsigned, so it is checked before anything changes: this provider's
 * merchant, the id of a binding this store started (and its `customId`, the
 * card's id), still waiting and within its time. Success stores the token
 * encrypted and activates the card; a failure (3-D Secure abandoned, a card
 * refused) marks it failed with the reason. Claimed once like every delivery;
 * a repeat, or anything that does not fit, changes nothing and is logged
 * escaped. The token itself never reaches a log line, an error or the event
 * bus: the intake calls this while the request is in hand.
 */
export async function recordTokenNotification(container: MedusaContainer, provider: PluginProvider, body: unknown): Promise<BindingChange | undefined> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  let notification: HostedNotification
  try {
    notification = parseNotification(body)
  } catch (error) {
    logger.warn(`${provider.key}: ignored a malformed token notification: ${untrusted((error as Error).message, 300)}`)
    return undefined
  }
  if (notification.purpose !== "token") {
    return undefined
  }
  const n: TokenNotification = notification
  const ignore = (why: string) => {
    logger.warn(`${provider.key}: ignored a token notification for ${untrusted(n.id)}: ${why}`)
    return undefined
  }
  if (n.merchantId !== hostedApi(container, provider.key).options.merchantId) {
    return ignore("not this merchant's")
  }
  const module = container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
  const [card] = await module.listTwSavedCards({ binding_id: n.id }, { take: 1 })
  if (!card || card.provider_id !== providerId(provider.key)) {
    return ignore("no card binding of this store")
  }
  if (n.customId !== undefined && n.customId !== card.id) {
    return ignore(`its customId is not card ${card.id}`)
  }
  if (card.status !== "binding") {
    logger.info(`${provider.key}: token notification for card ${card.id} skipped: the card is already ${card.status}`)
    return undefined
  }
  if (bindingTimedOut(card)) {
    await module.updateTwSavedCards({ id: card.id, status: "failed", failure_reason: BINDING_TIMED_OUT })
    return ignore(`card ${card.id}'s binding is past its time`)
  }
  const claim = await claimDelivery(container, provider.key, `token:${n.id}`)
  if (!claim) {
    logger.info(`${provider.key}: token notification for card ${card.id} skipped: a repeat, or handled by another process`)
    return undefined
  }
  const last4 = typeof n.paymentInfo === "string" && /^\d{4}$/.test(n.paymentInfo) ? n.paymentInfo : null
  try {
    if (n.success && n.token) {
      await module.activateSavedCard(card.id, { token: n.token, last4 })
      logger.info(`${provider.key}: card ${card.id} bound${last4 ? ` (•••• ${last4})` : ""}`)
    } else {
      const reason = bindingFailureReason(n.message)
      await module.updateTwSavedCards({ id: card.id, status: "failed", failure_reason: reason, last4 })
      logger.info(`${provider.key}: card ${card.id} not bound: ${untrusted(reason, 120)}`)
    }
  } catch (error) {
    await claim.release()
    throw error
  }
  return { cardId: card.id, customerId: card.customer_id, providerId: card.provider_id, status: n.success ? "active" : "failed" }
}
