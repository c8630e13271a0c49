import type { AuthenticatedMedusaRequest } from "@medusajs/framework/http"

/**
 * The logged-in customer's id. Every route that calls this sits behind
 * `authenticate("customer", …)` in middlewares.ts, which has already answered
 * 401 to anyone else; these routes never act for another customer.
 */
export const loggedInCustomer = (req: AuthenticatedMedusaRequest): string => req.auth_context.actor_id
