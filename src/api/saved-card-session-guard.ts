import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../modules/tw-saved-card"
import { isProviderOf } from "../providers/core/provider-keys"
import { namedSavedCard } from "../providers/hosted-checkout/public"
import { SHOPPER_ERROR } from "../providers/core/shopper-error-codes"

/**
 * Before a hosted-checkout payment session is created through the store API
 * with `data.savedCardId` (or Medusa's recipe key `payment_method`, the same
 * card by `namedSavedCard`): the card must be an active saved card of the
 * logged-in customer making the request, bound with this provider's
 * merchant (a token is the merchant's), and the payment collection must be
 * that customer's own cart's: a collection's id is no proof of whose cart it
 * is, and a session on a guest's cart would charge this customer's card at the
 * guest's completion and show the guest's name and email in its answer.
 * Anything else is refused with a clear 400 before any session exists (and
 * before `cart-invoice-facts-middleware.ts` copies the cart's buyer into it); the
 * provider checks the customer's account holder once more
 * (`providers/hosted-checkout/sessions/saved-card-session.ts`). Guests have no cards.
 */
export const NOT_YOUR_CART = "A saved card pays only for its own customer's cart: this cart is not yours."

/** The customer of the cart a payment collection pays for (a guest's cart has a guest customer of its own). */
async function cartCustomerOf(req: MedusaRequest, collectionId: string): Promise<string | undefined> {
  const { data } = await req.scope.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "payment_collection",
    fields: ["id", "cart.id", "cart.customer_id"],
    filters: { id: collectionId },
  })
  const cart = (data[0] as { cart?: { customer_id?: string | null } | null } | undefined)?.cart
  return cart?.customer_id ?? undefined
}

export async function savedCardSessionMiddleware(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { provider_id?: unknown; data?: unknown } | undefined
  const data = typeof body?.data === "object" && body.data !== null ? (body.data as Record<string, unknown>) : undefined
  const named = namedSavedCard(data)
  if (!body || typeof body.provider_id !== "string" || !named) {
    return next()
  }
  const hosted = isProviderOf("hosted-checkout", body.provider_id)
  if (!hosted && named.key === "payment_method") {
    // Another provider's own payment method (Stripe's pm_…): not a saved card of this plugin.
    return next()
  }
  try {
    if (!hosted) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Saved cards are paid through a hosted-checkout provider.", SHOPPER_ERROR.saved_cards_not_offered)
    }
    const savedCardId = named.value
    if (typeof savedCardId !== "string" || !savedCardId.startsWith("twcard_")) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid payment session data (${named.key}: must be a saved card id (twcard_…))`, SHOPPER_ERROR.payment_data_invalid)
    }
    // Store routes run core's customer authentication with unauthenticated requests allowed.
    const auth = (req as Partial<AuthenticatedMedusaRequest>).auth_context
    const customerId = auth?.actor_type === "customer" ? auth.actor_id : undefined
    if (!customerId) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Log in to pay with a saved card: saved cards belong to a customer account.", SHOPPER_ERROR.saved_card_login_required)
    }
    if (!req.scope.hasRegistration(TW_SAVED_CARD_MODULE)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This store does not keep saved cards.", SHOPPER_ERROR.saved_cards_not_offered)
    }
    const [card] = await req.scope
      .resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
      .listTwSavedCards({ id: savedCardId, customer_id: customerId, status: "active", provider_id: body.provider_id }, { take: 1, select: ["id"] })
    if (!card) {
      // Another customer's card, a deleted or unbound one, or one bound with another provider: the same answer, ids do not leak.
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Saved card ${savedCardId} is not an active saved card of this customer.`, SHOPPER_ERROR.saved_card_not_yours)
    }
    if ((await cartCustomerOf(req, req.params.id)) !== customerId) {
      // A guest's cart, another customer's, or no cart at all: the same answer, naming nothing of theirs.
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, NOT_YOUR_CART, SHOPPER_ERROR.cart_not_yours)
    }
  } catch (error) {
    return next(error)
  }
  next()
}
