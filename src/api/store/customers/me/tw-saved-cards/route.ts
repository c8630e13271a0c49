import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { SHOPPER_ERROR, withShopperCode } from "../../../../../providers/core/shopper-error-codes"
import { startTwCardBindingWorkflow } from "../../../../../workflows/saved-cards/start-tw-card-binding"
import { loggedInCustomer } from "../../../../logged-in-customer"
import { LISTED_STATUSES, savedCards, savedCardView } from "../../../../tw-saved-cards-shared/saved-card-route-views"
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
  const { result } = await startTwCardBindingWorkflow(req.scope)
    .run({ input: { customer_id: loggedInCustomer(req), provider_id, return_path } })
    .catch((error: unknown) => Promise.reject(withShopperCode(error, SHOPPER_ERROR.saved_card_binding_failed)))
  if (!result.saved_card || !result.checkout_url) {
    // The service did not open the page: the card is recorded failed, the shopper reads why.
    throw new MedusaError(
      result.error?.type ?? MedusaError.Types.UNEXPECTED_STATE,
      result.error?.message ?? "The card binding page could not be opened.",
      SHOPPER_ERROR.saved_card_binding_failed
    )
  }
  res.json({ saved_card: savedCardView(result.saved_card), checkout_url: result.checkout_url })
}
