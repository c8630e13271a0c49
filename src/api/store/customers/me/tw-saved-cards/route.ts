import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { startCardBinding } from "../../../../../workflows/saved-cards/card-binding"
import { loggedInCustomer } from "../../../../logged-in-customer"
import { LISTED_STATUSES, savedCards, savedCardView } from "../../../../tw-saved-cards-shared/views"
import type { StoreBindTwSavedCardType } from "./validators"

/** GET /store/customers/me/tw-saved-cards: the logged-in customer's own cards, newest first; a binding past its time shows failed. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const rows = await savedCards(req.scope).listTwSavedCards({ customer_id: loggedInCustomer(req), status: [...LISTED_STATUSES] }, { take: null, order: { created_at: "DESC" } })
  const now = Date.now()
  res.json({ saved_cards: rows.map((row) => savedCardView(row, now)) })
}

/**
 * POST /store/customers/me/tw-saved-cards: starts binding a card. Answers the
 * card (status `binding`) and the binding page to send the shopper to; the
 * card becomes `active` when the service's `token` notification arrives.
 */
export async function POST(req: AuthenticatedMedusaRequest<StoreBindTwSavedCardType>, res: MedusaResponse) {
  const { provider_id, return_path } = req.validatedBody
  const { card, checkoutUrl } = await startCardBinding(req.scope, { customerId: loggedInCustomer(req), providerId: provider_id, returnPath: return_path })
  res.json({ saved_card: savedCardView(card), checkout_url: checkoutUrl })
}
