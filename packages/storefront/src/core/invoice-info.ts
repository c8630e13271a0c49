import { z } from "zod"
import { INVOICE_FIELD_MAX, isCitizenCertificate, isMobileBarcode, isValidTaxId } from "./invoice-rules.js"

/**
 * `invoice` of a hosted-checkout session or a subscription checkout: the
 * service's `invoiceInfo`. A member carrier is `{ invoiceType: "cloud",
 * carrierType: "" }`; without an `invoice` the service issues one to the
 * member carrier too.
 */
export interface InvoiceInfo {
  invoiceType: "cloud" | "company"
  /** `3J0002` mobile barcode, `CQ0001` citizen digital certificate, `""` member carrier. Cloud invoices only. */
  carrierType?: "" | "3J0002" | "CQ0001"
  carrierId?: string
  /** The company's tax id. Company invoices only. */
  buyerIdentifier?: string
  buyerName?: string
  /** Where the invoice's notice goes instead of the buyer's email. */
  email?: string
}

export type InvoiceField = keyof InvoiceInfo

/** What is wrong with one field of a choice; `code` picks the shopper's message. */
export interface InvoiceIssue {
  /** The field, or undefined for the choice as a whole (not an object, a field it does not know). */
  field: InvoiceField | undefined
  code: InvoiceIssueCode
  message: string
}

export const INVOICE_ISSUE_CODES = [
  "invoice_not_an_object",
  "invoice_unknown_field",
  "invoice_type_invalid",
  "carrier_type_invalid",
  "carrier_type_required",
  "carrier_id_invalid",
  "carrier_id_too_long",
  "mobile_barcode_invalid",
  "citizen_certificate_invalid",
  "tax_id_required",
  "tax_id_invalid",
  "tax_id_too_long",
  "tax_id_check_digit",
  "company_name_invalid",
  "company_name_blank",
  "company_name_too_long",
  "invoice_email_invalid",
  "invoice_email_too_long",
] as const
export type InvoiceIssueCode = (typeof INVOICE_ISSUE_CODES)[number]

/** The shape of each field; the rules across fields are `invoiceIssues`. */
const shape = z.strictObject({
  invoiceType: z.enum(["cloud", "company"]),
  carrierType: z.enum(["3J0002", "CQ0001", ""]).optional(),
  carrierId: z.string().max(INVOICE_FIELD_MAX.carrierId).optional(),
  buyerIdentifier: z.string().max(INVOICE_FIELD_MAX.buyerIdentifier).optional(),
  // Trimmed before its length is counted, and sent trimmed.
  buyerName: z.string().trim().min(1).max(INVOICE_FIELD_MAX.buyerName).optional(),
  email: z.string().max(INVOICE_FIELD_MAX.email).pipe(z.email()).optional(),
})

const FIELDS = new Set<string>(Object.keys(shape.shape))

function shapeIssue(issue: z.core.$ZodIssue): InvoiceIssue {
  const field = FIELDS.has(String(issue.path[0])) ? (issue.path[0] as InvoiceField) : undefined
  const tooBig = issue.code === "too_big"
  const codes: Record<InvoiceField, InvoiceIssueCode> = {
    invoiceType: "invoice_type_invalid",
    carrierType: "carrier_type_invalid",
    carrierId: tooBig ? "carrier_id_too_long" : "carrier_id_invalid",
    buyerIdentifier: tooBig ? "tax_id_too_long" : "tax_id_invalid",
    buyerName: tooBig ? "company_name_too_long" : issue.code === "too_small" ? "company_name_blank" : "company_name_invalid",
    email: tooBig ? "invoice_email_too_long" : "invoice_email_invalid",
  }
  if (field) {
    return { field, code: codes[field], message: issue.message }
  }
  return { field: undefined, code: issue.code === "unrecognized_keys" ? "invoice_unknown_field" : "invoice_not_an_object", message: issue.message }
}

/** The rules across fields, for a choice whose fields have their shapes. */
function ruleIssues(info: InvoiceInfo): InvoiceIssue[] {
  if (info.invoiceType === "company") {
    if (info.buyerIdentifier === undefined) {
      return [{ field: "buyerIdentifier", code: "tax_id_required", message: "A company invoice needs the company's tax id." }]
    }
    if (!/^[0-9]{8}$/.test(info.buyerIdentifier)) {
      return [{ field: "buyerIdentifier", code: "tax_id_invalid", message: "A company tax id has 8 digits." }]
    }
    if (!isValidTaxId(info.buyerIdentifier)) {
      return [{ field: "buyerIdentifier", code: "tax_id_check_digit", message: "The company tax id's check digit is wrong." }]
    }
    return []
  }
  switch (info.carrierType) {
    case undefined:
      return [{ field: "carrierType", code: "carrier_type_required", message: "A cloud invoice needs a carrier: a mobile barcode, a citizen digital certificate, or the member carrier." }]
    case "3J0002":
      return isMobileBarcode(info.carrierId ?? "")
        ? []
        : [{ field: "carrierId", code: "mobile_barcode_invalid", message: "A mobile barcode is '/' followed by 7 characters of 0-9, A-Z, '.', '+' or '-'." }]
    case "CQ0001":
      return isCitizenCertificate(info.carrierId ?? "")
        ? []
        : [{ field: "carrierId", code: "citizen_certificate_invalid", message: "A citizen digital certificate number is 2 upper-case letters followed by 14 digits." }]
    default:
      return []
  }
}

export type InvoiceValidation = { success: true; invoice: InvoiceInfo } | { success: false; issues: InvoiceIssue[] }

/**
 * Checks an invoice choice with the hosted-checkout provider's rules, so a
 * storefront refuses a typo, naming the field, before any payment starts.
 * Takes what the provider takes and refuses what it refuses; on success the
 * choice as it is sent (the company name trimmed).
 */
export function validateInvoiceInfo(value: unknown): InvoiceValidation {
  const parsed = shape.safeParse(value)
  if (!parsed.success) {
    return { success: false, issues: parsed.error.issues.map(shapeIssue) }
  }
  const invoice: InvoiceInfo = parsed.data
  const issues = ruleIssues(invoice)
  return issues.length ? { success: false, issues } : { success: true, invoice }
}
