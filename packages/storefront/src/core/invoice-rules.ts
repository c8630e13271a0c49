/**
 * The rules of an e-invoice choice (the payment service's spec 2.3), as the
 * hosted-checkout provider applies them. Kept here rather than imported: the
 * kit is published on its own. The plugin's test suite checks that this kit
 * and the provider accept exactly the same choices.
 */

/** Longest values the provider takes; the company name and email are bounded by the provider, not the spec. */
export const INVOICE_FIELD_MAX = { carrierId: 16, buyerIdentifier: 8, buyerName: 60, email: 254 } as const

/** Mobile barcode (`3J0002`): `/` and 7 of 0-9, A-Z, `.`, `+`, `-`, as the tax app shows it. */
export const isMobileBarcode = (value: string): boolean => /^\/[0-9A-Z.+-]{7}$/.test(value)

/** Citizen digital certificate (`CQ0001`): 2 upper-case letters and 14 digits. */
export const isCitizenCertificate = (value: string): boolean => /^[A-Z]{2}[0-9]{14}$/.test(value)

const TAX_ID_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1] as const

/**
 * A company tax id (統一編號): 8 digits whose weighted digit sum is divisible
 * by 5 (the rule since 2023; the older divisible-by-10 ids pass it too). A
 * 7th digit of 7 weighs 28, whose digits may count as 10 or as 1: either sum may divide.
 */
export function isValidTaxId(value: string): boolean {
  if (!/^[0-9]{8}$/.test(value)) {
    return false
  }
  let sum = 0
  TAX_ID_WEIGHTS.forEach((weight, index) => {
    const product = Number(value[index]) * weight
    sum += Math.floor(product / 10) + (product % 10)
  })
  return sum % 5 === 0 || (value[6] === "7" && (sum + 1) % 5 === 0)
}
