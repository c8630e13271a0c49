import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { SHOPPER_ERROR } from "./shopper-error-codes"

/** The only currency both APIs take. */
export const TWD = "twd"

/**
 * Medusa amount (major units) to whole TWD for the service. The one place where
 * money crosses the boundary: a currency other than TWD, a fraction of a dollar
 * or a non-positive amount is refused here, before any network call.
 */
export function toTwd(amount: BigNumberInput, currencyCode: string | undefined): number {
  if ((currencyCode ?? "").toLowerCase() !== TWD) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `This payment provider only takes TWD; the amount is in ${currencyCode ? currencyCode.toUpperCase() : "no currency"}.`,
      SHOPPER_ERROR.currency_not_twd
    )
  }
  const value = new BigNumber(amount).numeric
  if (!Number.isFinite(value) || !Number.isInteger(value) || value < 1) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `TWD amounts must be whole dollars of at least 1; got ${String(value)}.`,
      SHOPPER_ERROR.amount_not_whole_twd
    )
  }
  return value
}
