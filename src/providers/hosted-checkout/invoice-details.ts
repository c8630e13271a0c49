import { z } from "zod"
import { invoiceLines, type OrderLine, type ProductDetail } from "../../lib/hosted"
import type { ResolvedHostedCheckoutOptions } from "./options"

/**
 * The `productDetails` of every create call of the hosted provider (page,
 * recurring page, schedule, token charge, token subscription), so that each
 * is invoiced the same way (docs/providers.md, "E-invoices").
 */

/**
 * With e-invoices on, the cart's lines (`invoiceLines`: whole TWD, totalling
 * the amount, or the one product line when they cannot); otherwise the one
 * product line, since nothing is invoiced on it.
 */
export function productDetailsFor(
  options: Pick<ResolvedHostedCheckoutOptions, "einvoice">,
  lines: readonly OrderLine[] | undefined,
  amount: number,
  productLine: (amount: number) => ProductDetail
): ProductDetail[] {
  return options.einvoice ? invoiceLines(lines ?? [], amount, productLine) : [productLine(amount)]
}

const invoicedSchema = z
  .array(z.looseObject({ productionCode: z.string(), description: z.string().min(1), quantity: z.int().min(1), unitPrice: z.int() }))
  .min(1)

/**
 * The lines a subscription's checkout was invoiced on (its session's
 * `invoiceLines`), as the `lines` of a renewal period's session: the service
 * invoices every period on the checkout's `productDetails`, so a renewal's
 * refund shares these lines out as allowances. Undefined when the checkout
 * kept none (e-invoices off, or a checkout from before lines were kept: it was
 * invoiced on the one product line, which the provider then uses again).
 */
export function renewalLines(invoiced: unknown): OrderLine[] | undefined {
  const parsed = invoicedSchema.safeParse(invoiced)
  if (!parsed.success) {
    return undefined
  }
  return parsed.data.map((line) => ({ code: line.productionCode, description: line.description, quantity: line.quantity, amount: line.quantity * line.unitPrice }))
}
