import type { AuthenticatedMedusaRequest } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"

/** The logged-in customer's id; the saved-card routes never act for anyone else. */
export function loggedInCustomer(req: AuthenticatedMedusaRequest): string {
  if (req.auth_context?.actor_type !== "customer" || !req.auth_context.actor_id) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Log in to manage your saved cards.")
  }
  return req.auth_context.actor_id
}
