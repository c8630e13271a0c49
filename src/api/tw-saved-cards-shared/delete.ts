import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { mirrorSavedCards } from "../../workflows/saved-cards/account-holder-mirror"
import { listedCard, savedCards } from "./views"

/**
 * Deletes a listed card (of `customerId` when given): its token is wiped and
 * it leaves the account holder's mirror. The row stays, as `deleted`, for
 * the charges that refer to it.
 */
export async function deleteSavedCard(container: MedusaContainer, id: string, customerId?: string) {
  const row = await listedCard(container, id, customerId)
  await savedCards(container).deleteSavedCard(row.id)
  if (row.status === "active") {
    await mirrorSavedCards(container, row.customer_id, row.provider_id).catch((error: Error) =>
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`medusa-payment-tw: the account holder of customer ${row.customer_id} still shows deleted card ${row.id}: ${error?.name ?? "error"}`)
    )
  }
  return { id: row.id, object: "tw_saved_card", deleted: true }
}
