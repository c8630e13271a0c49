import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { SHOPPER_ERROR, withShopperCode } from "../../../../../../providers/core/shopper-error-codes"
import { loggedInCustomer } from "../../../../../logged-in-customer"
import { deleteSavedCard } from "../../../../../tw-saved-cards-shared/delete"

/** DELETE /store/customers/me/tw-saved-cards/:id: one of the customer's own cards; anyone else's is 404. */
export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const result = await deleteSavedCard(req.scope, req.params.id, loggedInCustomer(req)).catch((error: unknown) =>
    Promise.reject((error as { type?: string }).type === MedusaError.Types.NOT_FOUND ? withShopperCode(error, SHOPPER_ERROR.saved_card_not_found) : error)
  )
  res.json(result)
}
