import { z } from "zod"
import { isCitizenCertificate, isMobileBarcode } from "../invoice-carriers"
import { isValidTaxId } from "../tax-id"

/**
 * `invoiceInfo` of the create endpoints (spec 2.3). The service checks the same
 * rules; checking here turns a round trip and a `V0001` into a precise local error.
 */

/**
 * Longest values the spec allows: a citizen certificate (2 letters and 14
 * digits) is the longest carrier, a tax id has 8 digits. The spec gives no
 * bound for the company name; 60 characters hold any registered Taiwanese
 * company name. The choice is kept on the session and payment and shown to the
 * merchant, so nothing in it is unbounded, whatever the carrier type.
 */
export const INVOICE_FIELD_MAX = { carrierId: 16, buyerIdentifier: 8, buyerName: 60, email: 254 } as const

const atMost = (max: number) => `must be at most ${max} characters`
/** A length check first: a value past it is refused as too long only, and never run through the shape checks. */
const bounded = (max: number) => z.string().max(max, atMost(max))

export const invoiceInfoSchema = z
  .strictObject({
    invoiceType: z.enum(["cloud", "company"]),
    /** `3J0002` mobile barcode, `CQ0001` natural-person certificate, `""` member carrier. */
    carrierType: z.enum(["3J0002", "CQ0001", ""]).optional(),
    carrierId: bounded(INVOICE_FIELD_MAX.carrierId).optional(),
    buyerIdentifier: bounded(INVOICE_FIELD_MAX.buyerIdentifier).optional(),
    buyerName: z.string().trim().min(1, "must not be blank").max(INVOICE_FIELD_MAX.buyerName, atMost(INVOICE_FIELD_MAX.buyerName)).optional(),
    email: bounded(INVOICE_FIELD_MAX.email).pipe(z.email()).optional(),
  })
  .superRefine((info, ctx) => {
    const fail = (path: string, message: string, variant?: string) =>
      ctx.addIssue({ code: "custom", path: [path], message, ...(variant ? { params: { variant } } : {}) })
    // Refinements run even when a field failed: a too-long value already has its one issue. Counted
    // in code points, as zod's max() counts: in UTF-16 units, a value of astral characters passed max()
    // and then skipped every format check here.
    const within = (value: unknown, max: number) => typeof value !== "string" || [...value].length <= max

    if (info.invoiceType === "cloud") {
      if (info.carrierType === undefined) {
        fail("carrierType", "is required for a cloud invoice (3J0002, CQ0001, or empty string for the member carrier)")
      } else if (!within(info.carrierId, INVOICE_FIELD_MAX.carrierId)) {
        // Already refused as too long.
      } else if (info.carrierType === "3J0002" && !isMobileBarcode(info.carrierId ?? "")) {
        fail("carrierId", "must be a mobile barcode: '/' followed by 7 characters of 0-9, A-Z, '.', '+', '-'", "INVALID_CARRIER_ID")
      } else if (info.carrierType === "CQ0001" && !isCitizenCertificate(info.carrierId ?? "")) {
        fail("carrierId", "must be a natural-person certificate: 2 upper-case letters followed by 14 digits", "INVALID_CARRIER_ID")
      }
    }
    if (info.invoiceType === "company" && within(info.buyerIdentifier, INVOICE_FIELD_MAX.buyerIdentifier) && !isValidTaxId(info.buyerIdentifier ?? "")) {
      fail(
        "buyerIdentifier",
        info.buyerIdentifier === undefined
          ? "is required for a company invoice"
          : "must be an 8-digit company tax id with a valid check digit",
        "INVALID_TAX_ID_NUMBER"
      )
    }
  })

export type InvoiceInfo = z.input<typeof invoiceInfoSchema>
