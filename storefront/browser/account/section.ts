import type { HttpTypes } from "@medusajs/types"

/**
 * One section of the account page ("My subscriptions", …): drawn into its own
 * panel for the logged-in customer. A section that fails shows its error in
 * its own panel; the others still draw.
 */
export interface AccountSection {
  /** Stable id, used in element ids: `account-<id>`. */
  id: string
  title: string
  render(container: HTMLElement, customer: HttpTypes.StoreCustomer): Promise<void>
}
