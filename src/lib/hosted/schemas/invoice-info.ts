import { z } from "zod"
import { isCitizenCertificate, isMobileBarcode } from "../invoice-carriers"
import { isValidTaxId } from "../tax-id"

/**
 * `invoiceInfo` of the create endpoints (spec 2.3). The service checks the same
 * rules; checking here turns a round trip and a `V0001` into a precise local error.
 */

export const invoiceInfoSchema = z
  .strictObject({
    invoiceType: z.enum(["cloud", "company"]),
    /** `3J0002` mobile barcode, `CQ0001` natural-person certificate, `""` member carrier. */
    carrierType: z.enum(["3J0002", "CQ0001", ""]).optional(),
    carrierId: z.string().optional(),
    buyerIdentifier: z.string().optional(),
    buyerName: z.string().optional(),
    email: z.email().optional(),
  })
  .superRefine((info, ctx) => {
    const fail = (path: string, message: string, variant?: string) =>
      ctx.addIssue({ code: "custom", path: [path], message, ...(variant ? { params: { variant } } : {}) })

    if (info.invoiceType === "cloud") {
      if (info.carrierType === undefined) {
        fail("carrierType", "is required for a cloud invoice (3J0002, CQ0001, or empty string for the member carrier)")
      } else if (info.carrierType === "3J0002" && !isMobileBarcode(info.carrierId ?? "")) {
        fail("carrierId", "must be a mobile barcode: '/' followed by 7 characters of 0-9, A-Z, '.', '+', '-'", "INVALID_CARRIER_ID")
      } else if (info.carrierType === "CQ0001" && !isCitizenCertificate(info.carrierId ?? "")) {
        fail("carrierId", "must be a natural-person certificate: 2 upper-case letters followed by 14 digits", "INVALID_CARRIER_ID")
      }
    }
    if (info.invoiceType === "company" && !isValidTaxId(info.buyerIdentifier ?? "")) {
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
