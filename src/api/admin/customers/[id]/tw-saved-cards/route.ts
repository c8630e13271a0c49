import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { adminSavedCardView, LISTED_STATUSES, savedCards } from "../../../../tw-saved-cards-shared/saved-card-route-views"

/** GET /admin/customers/:id/tw-saved-cards: the customer page's saved cards (last four, label, dates; never the token). */
export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const rows = await savedCards(req.scope).listTwSavedCards({ customer_id: req.params.id, status: [...LISTED_STATUSES] }, { take: null, order: { created_at: "DESC" } })
  const now = Date.now()
  res.json({ saved_cards: rows.map((row) => adminSavedCardView(row, now)) })
}
