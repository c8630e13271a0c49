import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../../lib/log"
import { bindingTimedOut } from "../../../modules/tw-saved-card/binding-state"
import { providerId } from "../../../providers/core/provider-keys"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { savedCardModule } from "../../../saved-cards/charge-rows"
import type { TokenDelivery } from "../decisions/token-notification"

export type VerifiedToken =
  /** Not this store's, not this card's, or the card is no longer waiting: nothing changes. */
  | { action: "ignore" }
  /** The card's binding is past its time: it is marked failed for good, the token is not taken. */
  | { action: "expire"; card_id: string }
  /** A binding of this store, waiting and within its time: the token is taken (bind) or the failure recorded (fail). */
  | { action: "bind" | "fail"; card_id: string; customer_id: string; provider_id: string }

/**
 * Matches an (unsigned) `token` notification with a binding this store
 * started: this provider's merchant, the binding's id, its `customId` equal
 * to the card's id, the card still `binding` and within its time. Anything
 * else is logged, escaped, and changes nothing.
 */
export const verifyTokenNotificationStep = createStep(
  "verify-tw-token-notification",
  async ({ provider_key: key, delivery }: { provider_key: string; delivery: TokenDelivery }, { container }) => {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    const ignore = (why: string) => {
      logger.warn(`${key}: ignored a token notification for ${untrusted(delivery.binding_id)}: ${why}`)
      return new StepResponse<VerifiedToken>({ action: "ignore" })
    }
    if (delivery.merchant_id !== hostedApi(container, key).options.merchantId) {
      return ignore("not this merchant's")
    }
    const [card] = await savedCardModule(container).listTwSavedCards({ binding_id: delivery.binding_id }, { take: 1 })
    if (!card || card.provider_id !== providerId(key)) {
      return ignore("no card binding of this store")
    }
    if (delivery.custom_id !== null && delivery.custom_id !== card.id) {
      return ignore(`its customId is not card ${card.id}`)
    }
    if (card.status !== "binding") {
      logger.info(`${key}: token notification for card ${card.id} skipped: the card is already ${card.status}`)
      return new StepResponse<VerifiedToken>({ action: "ignore" })
    }
    if (bindingTimedOut(card)) {
      logger.warn(`${key}: ignored a token notification for ${untrusted(delivery.binding_id)}: card ${card.id}'s binding is past its time`)
      return new StepResponse<VerifiedToken>({ action: "expire", card_id: card.id })
    }
    return new StepResponse<VerifiedToken>({ action: delivery.success ? "bind" : "fail", card_id: card.id, customer_id: card.customer_id, provider_id: card.provider_id })
  }
)
