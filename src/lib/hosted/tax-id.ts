/**
 * Taiwan company tax id (統一編號) check: 8 digits, weights 1,2,1,2,1,2,4,1, add
 * the digits of each product. Valid when the sum is divisible by 5 (the rule since
 * 2023; the old divisible-by-10 ids still pass), or, when the 7th digit is 7
 * (4 x 7 = 28 whose digit sum 10 may count as 1 or 0), when sum + 1 is.
 */

const WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1]

export function isValidTaxId(value: string): boolean {
  if (!/^\d{8}$/.test(value)) {
    return false
  }
  const digits = [...value].map(Number)
  const sum = digits.reduce((total, digit, i) => {
    const product = digit * WEIGHTS[i]
    return total + Math.floor(product / 10) + (product % 10)
  }, 0)
  return sum % 5 === 0 || (digits[6] === 7 && (sum + 1) % 5 === 0)
}
