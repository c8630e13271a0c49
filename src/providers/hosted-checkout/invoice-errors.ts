import { MedusaError } from "@medusajs/framework/utils"
import { InvalidRequestError } from "../../lib/http"
import { INVOICE_VARIANT_CODES } from "../core/shopper-error-codes"

/**
 * The service's e-invoice refusals (spec 2.3, 4.10, 7) as messages a shopper
 * or an admin can act on, instead of the service's `V0001` text.
 */
const MESSAGES: Record<string, { type: string; message: string }> = {
  INVALID_CARRIER_ID: {
    type: MedusaError.Types.INVALID_DATA,
    message:
      "The e-invoice carrier was not accepted (invoice.carrierId): check the mobile barcode (a '/' and 7 characters, as your tax app shows it) " +
      "or the citizen digital certificate number (2 letters and 14 digits), or choose another invoice option.",
  },
  INVALID_TAX_ID_NUMBER: {
    type: MedusaError.Types.INVALID_DATA,
    message: "The company tax id was not accepted (invoice.buyerIdentifier): it must be the company's 8-digit unified business number.",
  },
  USER_NAME_AND_EMAIL_REQUIRED: {
    type: MedusaError.Types.INVALID_DATA,
    message: "E-invoices need the buyer's name and email: set the cart's email and billing address name first.",
  },
  PRODUCT_DETAILS_REQUIRED: {
    type: MedusaError.Types.NOT_ALLOWED,
    message:
      "The service issued an e-invoice for this payment, so its refund needs invoice allowance lines (productDetails): " +
      "turn on the provider's `einvoice` option to match the e-invoice setting of your domain, restart, and refund again.",
  },
}

/**
 * A MedusaError for an e-invoice refusal of the service (or of the client's own check); undefined for anything else.
 * The shopper's refusals carry their code; `PRODUCT_DETAILS_REQUIRED` is a refund's, for the admin.
 */
export function invoiceError(what: string, error: unknown): MedusaError | undefined {
  const variant = error instanceof InvalidRequestError ? error.variant : undefined
  const known = variant ? MESSAGES[variant] : undefined
  return known ? new MedusaError(known.type, `${what}: ${known.message}`, INVOICE_VARIANT_CODES[variant!]) : undefined
}
