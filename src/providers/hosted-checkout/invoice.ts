import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import type { InvoiceInfo } from "../../lib/hosted"
import { SHOPPER_ERROR } from "../core/shopper-error-codes"

/**
 * The e-invoice side of a hosted payment (spec 2.3): who the buyer is, what
 * invoice they chose, and how that choice is shown back. Shared by every
 * create call the provider makes (one-time checkout today; recurring and token
 * payments reuse `invoiceRequestFields`).
 */

/**
 * The buyer as the cart has it, filled by the plugin's store middleware from
 * the cart (email, billing name), never trusted for anything but the invoice notice.
 */
export const buyerSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  email: z.email().optional(),
})
export type Buyer = z.output<typeof buyerSchema>

/** What the e-invoice fields are built from: the storefront's choice and the cart's buyer. */
export interface InvoiceInput {
  invoice?: InvoiceInfo
  buyer?: Buyer
  /**
   * A charge with no cart and no shopper (an off-session renewal of Medusa's recipe): the customer's record is
   * all there is, so a customer registered without a name or company is addressed by their email.
   */
  offSession?: boolean
}

/** The e-invoice fields of a create body (`/checkout`, `/checkout-subscription`, `/token/transactions`, ...). */
export interface InvoiceRequestFields {
  userName: string
  userEmail: string
  invoiceInfo?: InvoiceInfo
}

/**
 * `userName`, `userEmail` and `invoiceInfo` for a merchant with e-invoice
 * activated. The logged-in customer's name and email come first, then the
 * cart's (off session, the email stands in for a missing name); a missing one
 * is an INVALID_DATA error naming it, before any call.
 * Without an `invoice` the service issues a cloud invoice to the member carrier.
 */
export function invoiceRequestFields(input: InvoiceInput, customer?: Pick<PaymentCustomerDTO, "email" | "first_name" | "last_name" | "company_name">): InvoiceRequestFields {
  const email = customer?.email || input.buyer?.email
  const name = [customer?.first_name, customer?.last_name].filter(Boolean).join(" ") || customer?.company_name || input.buyer?.name || (input.offSession ? email : undefined)
  const missing = [name ? undefined : "name", email ? undefined : "email"].filter(Boolean)
  if (input.offSession && !email) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      "E-invoices of an off-session charge are addressed to the customer's email, and this customer has none: set the customer's email before charging.",
      SHOPPER_ERROR.invoice_buyer_incomplete
    )
  }
  if (!name || !email) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `E-invoices need the buyer's name and email; this cart has no ${missing.join(" and no ")}: ` +
        "set the cart's email and billing address name (or the customer's) first.",
      SHOPPER_ERROR.invoice_buyer_incomplete
    )
  }
  return { userName: name, userEmail: email, ...(input.invoice ? { invoiceInfo: input.invoice } : {}) }
}

/** A personal carrier shown back: only its last characters (3 of a barcode, 4 of a certificate). */
export function maskCarrier(carrierId: string, visible: number): string {
  return `${"*".repeat(Math.max(0, carrierId.length - visible))}${carrierId.slice(-visible)}`
}

/** The invoice choice as an admin sees it; personal carriers masked, a company's tax id in full (it is public). */
export interface InvoiceSummary {
  invoice_type: "cloud" | "company"
  /** "Member carrier", "Mobile barcode", "Citizen digital certificate", "Company (tax id)". */
  label: string
  carrier?: string
  tax_id?: string
  company_name?: string
}

const invoiceShape = z.looseObject({
  invoiceType: z.enum(["cloud", "company"]),
  carrierType: z.string().optional(),
  carrierId: z.string().optional(),
  buyerIdentifier: z.string().optional(),
  buyerName: z.string().optional(),
})

/** Summary of the `invoice` kept on a payment's data; undefined when there is none (or it is unreadable). */
export function invoiceSummary(invoice: unknown): InvoiceSummary | undefined {
  const parsed = invoiceShape.safeParse(invoice)
  if (!parsed.success) {
    return undefined
  }
  const info = parsed.data
  if (info.invoiceType === "company") {
    return { invoice_type: "company", label: "Company (tax id)", tax_id: info.buyerIdentifier, ...(info.buyerName ? { company_name: info.buyerName } : {}) }
  }
  if (info.carrierType === "3J0002") {
    return { invoice_type: "cloud", label: "Mobile barcode", carrier: maskCarrier(info.carrierId ?? "", 3) }
  }
  if (info.carrierType === "CQ0001") {
    return { invoice_type: "cloud", label: "Citizen digital certificate", carrier: maskCarrier(info.carrierId ?? "", 4) }
  }
  return { invoice_type: "cloud", label: "Member carrier" }
}

/** The same summary for a payment that was invoiced without a storefront choice: the service's default. */
export const DEFAULT_INVOICE_SUMMARY: InvoiceSummary = { invoice_type: "cloud", label: "Member carrier" }
