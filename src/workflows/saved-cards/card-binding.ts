import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { UnknownOutcomeError } from "../../lib/http"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../modules/tw-saved-card"
import { BINDING_PAGE_MS } from "../../modules/tw-saved-card/binding-state"
import { toMedusaError } from "../../providers/core/errors"
import { providerId } from "../../providers/core/provider-keys"
import { pluginProviders } from "../plugin-providers"
import { hostedApi } from "../subscriptions/hosted-api"

/** The storefront's account page, where the binding page sends the shopper back by default. */
export const DEFAULT_BINDING_RETURN_PATH = "/account"

/**
 * Starts binding a card for a logged-in customer: the card's row first (its
 * id is the binding's `customId`, and the row is how the `token`
 * notification is recognised), then `POST /checkout-token` once. The hosted
 * API has no idempotency and no read of a binding: after an unknown outcome
 * the row is failed and the customer starts again; a binding page that did
 * get created is never shown, so it binds nothing.
 */
export async function startCardBinding(
  container: MedusaContainer,
  { customerId, providerId: requested, returnPath }: { customerId: string; providerId?: string; returnPath?: string }
) {
  const hosted = pluginProviders(container).filter((p) => p.identifier === "hosted-checkout")
  const provider = requested ? hosted.find((p) => providerId(p.key) === requested) : hosted[0]
  if (!provider) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, requested ? `${requested} is not a hosted-checkout provider of this store.` : "This store has no hosted-checkout provider to bind cards with.")
  }
  const api = hostedApi(container, provider.key)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: customers } = await query.graph({ entity: "customer", fields: ["id", "email"], filters: { id: customerId } })
  const email = (customers[0] as { email?: string | null } | undefined)?.email ?? undefined

  const module = container.resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
  const card = await module.createTwSavedCards({
    customer_id: customerId,
    provider_id: providerId(provider.key),
    status: "binding",
    binding_expires_at: new Date(Date.now() + BINDING_PAGE_MS),
  })
  await container.resolve(ContainerRegistrationKeys.LINK).create({ [Modules.CUSTOMER]: { customer_id: customerId }, [TW_SAVED_CARD_MODULE]: { tw_saved_card_id: card.id } })

  const back = `${api.options.storefrontUrl.replace(/\/+$/, "")}${returnPath ?? DEFAULT_BINDING_RETURN_PATH}`
  try {
    const created = await api.client.checkouts.createCardBinding({
      successUrl: back,
      failureUrl: back,
      customId: card.id,
      // The page asks for the cardholder's email unless it is given.
      ...(email && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) ? { payerEmail: email } : {}),
    })
    const bound = await module.updateTwSavedCards({ id: card.id, binding_id: created.id, binding_expires_at: created.page.expiresAt })
    return { card: bound, checkoutUrl: created.page.url }
  } catch (error) {
    const unknown = error instanceof UnknownOutcomeError
    await module.updateTwSavedCards({ id: card.id, status: "failed", failure_reason: unknown ? "the payment service did not answer" : "the binding page could not be opened" })
    throw unknown
      ? new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment service did not answer; nothing was bound. Please try again.")
      : toMedusaError("Opening the card binding page", error)
  }
}
