import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { loggedInCustomer } from "../../../../../logged-in-customer"
import { deleteSavedCard } from "../../../../../tw-saved-cards-shared/delete"

/** DELETE /store/customers/me/tw-saved-cards/:id: one of the customer's own cards; anyone else's is 404. */
export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json(await deleteSavedCard(req.scope, req.params.id, loggedInCustomer(req)))
}
