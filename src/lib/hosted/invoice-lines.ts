import type { ProductDetail } from "./schemas/hosted-fields"

/**
 * The `productDetails` an e-invoice is issued on, and the allowance lines of a
 * refund (spec 2.3, 4.10). The service issues the invoice from the checkout's
 * lines and the allowance from the refund's, and both must total their amount
 * exactly in whole TWD: these functions guarantee the totals, and fall back to
 * one line for the whole amount when the order's lines cannot carry it.
 */

/** One line of an order as the store knows it; `amount` is the line's total (tax and discounts included), maybe fractional. */
export interface OrderLine {
  code: string
  description: string
  quantity: number
  amount: number
}

/** The service keeps descriptions short; a longer one is cut rather than refused. */
const MAX_DESCRIPTION = 100

const lineTotal = (line: ProductDetail) => line.quantity * line.unitPrice
export const linesTotal = (lines: readonly ProductDetail[]) => lines.reduce((sum, line) => sum + lineTotal(line), 0)

function describe(description: string, quantity: number): string {
  const text = quantity > 1 ? `${description} x ${quantity}` : description
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text
}

/**
 * The checkout's invoice lines: one per order line, each rounded to whole TWD,
 * the last absorbing what rounding moved so the lines total `amount`. A line
 * whose total divides by its quantity keeps quantity and unit price; another is
 * one line of quantity 1 named "… x n". Zero lines are left out. When the
 * lines do not add up to the amount within rounding (say, a total computed
 * elsewhere), `fallback(amount)` is the single line instead.
 */
export function invoiceLines(lines: readonly OrderLine[], amount: number, fallback: (amount: number) => ProductDetail): ProductDetail[] {
  if (lines.some((line) => !Number.isInteger(line.quantity) || line.quantity < 1 || !Number.isFinite(line.amount))) {
    return [fallback(amount)]
  }
  const rounded = lines.map((line) => ({ line, total: Math.round(line.amount) })).filter(({ total }) => total !== 0)
  // Rounding moves each line by at most half a dollar; more means the lines are not this amount's.
  const drift = amount - rounded.reduce((sum, { total }) => sum + total, 0)
  if (!rounded.length || Math.abs(drift) > rounded.length / 2) {
    return [fallback(amount)]
  }
  rounded[rounded.length - 1]!.total += drift
  const details = rounded.map(({ line, total }) => {
    const even = total % line.quantity === 0
    return {
      productionCode: line.code,
      description: describe(line.description, even ? 1 : line.quantity),
      quantity: even ? line.quantity : 1,
      unit: "item",
      unitPrice: even ? total / line.quantity : total,
    }
  })
  return linesTotal(details) === amount && details.every((d) => d.unitPrice !== 0) ? details : [fallback(amount)]
}

/**
 * The allowance lines of a refund of `refund` TWD against the invoiced lines.
 * A full refund returns the invoiced lines unchanged. A partial one shares the
 * refund among the lines in proportion to their totals, each share rounded
 * down and the last line taking the rest, one line of quantity 1 each, lines
 * whose share is 0 left out. Invoices with a negative (discount) line, or whose
 * lines are unknown, get `fallback(refund)`.
 */
export function allowanceLines(invoiced: readonly ProductDetail[] | undefined, refund: number, fallback: (amount: number) => ProductDetail): ProductDetail[] {
  const lines = invoiced ?? []
  const total = linesTotal(lines)
  if (!lines.length || lines.some((line) => line.unitPrice < 0) || total <= 0 || refund > total) {
    return [fallback(refund)]
  }
  if (refund === total) {
    return lines.map((line) => ({ ...line }))
  }
  const shares = lines.map((line) => Math.floor((refund * lineTotal(line)) / total))
  shares[shares.length - 1] = refund - shares.slice(0, -1).reduce((sum, share) => sum + share, 0)
  return lines
    .map((line, i) => ({
      productionCode: line.productionCode,
      description: line.description,
      quantity: 1,
      unit: line.unit,
      unitPrice: shares[i]!,
    }))
    .filter((line) => line.unitPrice > 0)
}
