import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { startCardBinding } from "../../../../../workflows/saved-cards/card-binding"
import { parseInput } from "../../../../tw-subscriptions-shared/input"
import { loggedInCustomer } from "../../../../tw-saved-cards-shared/customer"
import { bindCardBodySchema } from "../../../../tw-saved-cards-shared/input"
import { LISTED_STATUSES, savedCards, savedCardView } from "../../../../tw-saved-cards-shared/views"

/** GET /store/customers/me/tw-saved-cards: the logged-in customer's own cards, newest first; a binding past its time shows failed. */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  const rows = await savedCards(req.scope).listTwSavedCards({ customer_id: customerId, status: [...LISTED_STATUSES] }, { take: null, order: { created_at: "DESC" } })
  const now = Date.now()
  res.json({ saved_cards: rows.map((row) => savedCardView(row, now)) })
}

/**
 * POST /store/customers/me/tw-saved-cards: starts binding a card. Answers the
 * card (status `binding`) and the binding page to send the shopper to; the
 * card becomes `active` when the service's `token` notification arrives.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const customerId = loggedInCustomer(req)
  const body = parseInput(bindCardBodySchema, req.body, "card binding")
  const { card, checkoutUrl } = await startCardBinding(req.scope, { customerId, providerId: body.provider_id, returnPath: body.return_path })
  res.json({ saved_card: savedCardView(card), checkout_url: checkoutUrl })
}
