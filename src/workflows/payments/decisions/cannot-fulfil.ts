import { MedusaError } from "@medusajs/framework/utils"

/**
 * Whether the store really cannot fulfil a paid order, however often it
 * tries: the stock is gone (core's inventory check, or the inventory module
 * refusing the reservation). Anything else (a lock time-out, a restart, the
 * database) is worth another attempt later.
 */
export function cannotFulfil(error: { message?: string; code?: string; type?: string } | undefined): boolean {
  return (
    error?.code === MedusaError.Codes.INSUFFICIENT_INVENTORY ||
    (error?.type === MedusaError.Types.NOT_ALLOWED && /^(Not enough stock available|Some variant does not have the required inventory)/.test(error.message ?? ""))
  )
}
