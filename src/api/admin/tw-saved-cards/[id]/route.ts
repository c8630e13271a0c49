import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { deleteSavedCard } from "../../../tw-saved-cards-shared/delete"

/** DELETE /admin/tw-saved-cards/:id: deletes a customer's saved card (its token is wiped). */
export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json(await deleteSavedCard(req.scope, req.params.id))
}
