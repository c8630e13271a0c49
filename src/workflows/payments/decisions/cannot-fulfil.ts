import { MedusaError } from "@medusajs/framework/utils"

/**
 * Whether the store really cannot fulfil a paid order, however often it
 * tries: the stock is gone. Core's inventory check (`confirm-inventory`) says
 * so with the code `INSUFFICIENT_INVENTORY`, which survives a workflow's
 * serialized error. The inventory module refusing a reservation
 * (`Not enough stock available for item … at location …`, from
 * `createReservationItems`) has no code, only the type `NOT_ALLOWED`, so it
 * is known by the start of its message. Anything else (a lock time-out, a
 * restart, the database) is worth another attempt later.
 */
export function cannotFulfil(error: { message?: string; code?: string; type?: string } | undefined): boolean {
  return error?.code === MedusaError.Codes.INSUFFICIENT_INVENTORY || (error?.type === MedusaError.Types.NOT_ALLOWED && /^Not enough stock available/.test(error.message ?? ""))
}
