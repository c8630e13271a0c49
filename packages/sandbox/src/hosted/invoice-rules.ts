/** E-invoice checks the service performs on `invoiceInfo` (spec 2.3). */

/**
 * Mobile barcode (`3J0002`): `/` and 7 of `0-9 A-Z . + -`, then a live lookup at
 * the tax authority, emulated by a fixed list of barcodes it does not know.
 * Natural-person certificate (`CQ0001`): 2 capital letters and 14 digits.
 */
export function carrierIdRule(carrierType: "3J0002" | "CQ0001", carrierId: unknown, unknownToTaxAuthority: readonly string[]): boolean {
  if (typeof carrierId !== "string") {
    return false
  }
  if (carrierType === "3J0002") {
    return /^\/[0-9A-Z.+-]{7}$/.test(carrierId) && !unknownToTaxAuthority.includes(carrierId)
  }
  return /^[A-Z]{2}\d{14}$/.test(carrierId)
}

const TAX_ID_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1]

/**
 * Taiwan company tax id (unified business number): multiply each digit by its
 * weight, add the digits of each product; valid when the sum is divisible by 5,
 * or, when the seventh digit is 7 (whose product 28 can count as 10 or 1), when
 * the sum plus one is.
 */
export function isValidTaxId(value: string): boolean {
  if (!/^\d{8}$/.test(value)) {
    return false
  }
  let sum = 0
  for (let i = 0; i < 8; i++) {
    const product = Number(value[i]) * TAX_ID_WEIGHTS[i]
    sum += Math.floor(product / 10) + (product % 10)
  }
  return sum % 5 === 0 || (value[6] === "7" && (sum + 1) % 5 === 0)
}
