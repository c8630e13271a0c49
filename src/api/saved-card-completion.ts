import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { TW_SAVED_CARD_MODULE } from "../modules/tw-saved-card"
import { isProviderOf } from "../providers/core/provider-keys"
import { SHOPPER_ERROR } from "../providers/core/shopper-error-codes"
import { sessionSavedCard } from "../providers/hosted-checkout/public"
import { chargeTwSavedCardWorkflow } from "../workflows/saved-cards/charge-tw-saved-card"

interface CartRow {
  id: string
  customer_id?: string | null
  completed_at?: unknown
  payment_collection?: { payment_sessions?: Array<{ id: string; provider_id: string; status: string; data: Record<string, unknown> | null } | null> | null } | null
}

/** The cart's saved-card session still to be charged, if it has one, and the cart's customer. */
async function savedCardSessionOf(req: MedusaRequest, cartId: string): Promise<{ sessionId: string; cartCustomerId: string | null } | undefined> {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "cart",
    fields: ["id", "customer_id", "completed_at", "payment_collection.payment_sessions.id", "payment_collection.payment_sessions.provider_id", "payment_collection.payment_sessions.status", "payment_collection.payment_sessions.data"],
    filters: { id: cartId },
  })
  const cart = data[0] as CartRow | undefined
  if (!cart || cart.completed_at) {
    return undefined
  }
  const session = (cart.payment_collection?.payment_sessions ?? []).find(
    (s) => !!s && isProviderOf("hosted-checkout", s.provider_id) && !!sessionSavedCard(s.data ?? undefined) && s.status !== "authorized" && s.status !== "captured"
  )
  return session ? { sessionId: session.id, cartCustomerId: cart.customer_id ?? null } : undefined
}

/**
 * Before core's `POST /store/carts/:id/complete`: a cart paid with a saved
 * card is charged here, once, under the cart's lock (the workflow
 * `charge-tw-saved-card`);
 * then core completes it as any paid cart, and its authorization takes the
 * sealed charge. (An off-session session, Medusa's recipe, is charged by the
 * same workflow from the provider's authorization when nothing completes a
 * cart; completed here, it is charged here, as any saved-card session.) The storefront completes the cart as usual and gets:
 * - the order (core's answer) when the charge is paid;
 * - 400 with the decline's meaning when the card was declined: no order, the
 *   cart stays payable with a new session (this card again, another card, another method);
 * - 409 `payment_pending` when the service has not confirmed the charge yet:
 *   no order yet; the reconciliation places it once the charge shows paid.
 */
export async function savedCardCompletionMiddleware(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (!req.scope.hasRegistration(TW_SAVED_CARD_MODULE)) {
    return next()
  }
  try {
    const found = await savedCardSessionOf(req, req.params.id)
    if (!found) {
      return next()
    }
    const { sessionId, cartCustomerId } = found
    const { result } = await chargeTwSavedCardWorkflow(req.scope).run({ input: { cart_id: req.params.id, payment_session_id: sessionId, cart_customer_id: cartCustomerId } })
    const { outcome } = result
    if (outcome.status === "declined") {
      return next(new MedusaError(MedusaError.Types.NOT_ALLOWED, outcome.message, outcome.code ?? SHOPPER_ERROR.card_declined))
    }
    if (outcome.status === "unknown") {
      // Not core's CONFLICT: its error handler replaces the message with a generic one.
      res.status(409).json({ type: "payment_pending", code: SHOPPER_ERROR.payment_pending, message: outcome.message, payment_session_id: sessionId })
      return
    }
  } catch (error) {
    return next(error)
  }
  next()
}
