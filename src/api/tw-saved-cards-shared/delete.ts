import type { MedusaContainer } from "@medusajs/framework/types"
import { deleteTwSavedCardWorkflow } from "../../workflows/saved-cards/delete-tw-saved-card"

/**
 * Deletes a listed card (of `customerId` when given) through the workflow
 * `delete-tw-saved-card`: it leaves the account holder's mirror, its token
 * is wiped, and the row stays, as `deleted`, for the charges that refer to it.
 */
export async function deleteSavedCard(container: MedusaContainer, id: string, customerId?: string) {
  const { result } = await deleteTwSavedCardWorkflow(container).run({ input: { id, customer_id: customerId } })
  return result
}
