import { type InvoiceInfo, type InvoiceIssue, validateInvoiceInfo } from "./invoice-info.js"
import { KIT_ERROR_CODES, TwPaymentError } from "./payment-error.js"

/**
 * The e-invoice choices a checkout offers, as a shopper makes them: a cloud
 * invoice to the member carrier, to a mobile barcode or to a citizen digital
 * certificate, or a company invoice with the company's tax id.
 */
export type InvoiceChoice = (
  | { kind: "member" }
  | { kind: "mobile_barcode"; barcode: string }
  | { kind: "citizen_certificate"; certificate: string }
  | { kind: "company"; taxId: string; companyName?: string }
) & {
  /** Where the invoice's notice goes, instead of the order's email. */
  email?: string
}

/** The store's code for an issue: its carrier, its tax id, or the choice's other fields. */
function codeOf(issue: InvoiceIssue | undefined): string {
  if (issue?.field === "carrierId") {
    return KIT_ERROR_CODES.invoiceCarrierInvalid
  }
  return issue?.field === "buyerIdentifier" ? KIT_ERROR_CODES.invoiceTaxIdInvalid : KIT_ERROR_CODES.invoiceInvalid
}

/** An invoice choice the provider would refuse; `issues` name each field and what is wrong with it. */
export class InvoiceChoiceError extends TwPaymentError {
  readonly issues: InvoiceIssue[]

  constructor(issues: InvoiceIssue[]) {
    super(issues[0]?.message ?? "The e-invoice choice is not valid.", { code: codeOf(issues[0]) })
    this.issues = issues
  }
}

const optional = (value: string | undefined) => (value?.trim() ? value.trim() : undefined)

/**
 * The choice as the provider's `invoice`, checked with its rules: carriers
 * are upper-cased as the tax app shows them, and blank optional fields left
 * out. Throws an `InvoiceChoiceError` naming the field the shopper must fix.
 */
export function invoiceInfoFromChoice(choice: InvoiceChoice): InvoiceInfo {
  const email = optional(choice.email)
  let info: InvoiceInfo
  switch (choice.kind) {
    case "mobile_barcode":
      info = { invoiceType: "cloud", carrierType: "3J0002", carrierId: choice.barcode.trim().toUpperCase() }
      break
    case "citizen_certificate":
      info = { invoiceType: "cloud", carrierType: "CQ0001", carrierId: choice.certificate.trim().toUpperCase() }
      break
    case "company": {
      const name = optional(choice.companyName)
      info = { invoiceType: "company", buyerIdentifier: choice.taxId.trim(), ...(name ? { buyerName: name } : {}) }
      break
    }
    default:
      info = { invoiceType: "cloud", carrierType: "" }
  }
  return checkedInvoice(email ? { ...info, email } : info)
}

/** An `invoice` as the provider takes it; throws an `InvoiceChoiceError` for one it would refuse. */
export function checkedInvoice(invoice: unknown): InvoiceInfo {
  const result = validateInvoiceInfo(invoice)
  if (!result.success) {
    throw new InvoiceChoiceError(result.issues)
  }
  return result.invoice
}

/** The choice an `invoice` was made from (to fill a form in again); undefined for anything else. */
export function invoiceChoiceOf(invoice: unknown): InvoiceChoice | undefined {
  const result = validateInvoiceInfo(invoice)
  if (!result.success) {
    return undefined
  }
  const info = result.invoice
  const email = info.email ? { email: info.email } : {}
  if (info.invoiceType === "company") {
    return { kind: "company", taxId: info.buyerIdentifier ?? "", ...(info.buyerName ? { companyName: info.buyerName } : {}), ...email }
  }
  if (info.carrierType === "3J0002") {
    return { kind: "mobile_barcode", barcode: info.carrierId ?? "", ...email }
  }
  if (info.carrierType === "CQ0001") {
    return { kind: "citizen_certificate", certificate: info.carrierId ?? "", ...email }
  }
  return { kind: "member", ...email }
}
