import type { InvoiceInfo } from "../core/invoice-info.js"

/**
 * The e-invoice a payment sends: a checked `InvoiceInfo`, or a function that
 * checks the form (an `InvoiceChoiceState`'s `check`) and gives `false` when
 * the form showed an error, which stops the payment.
 */
export type InvoiceSource = InvoiceInfo | (() => InvoiceInfo | false | undefined)

/** The invoice to send, undefined for none, or `false`: stop, the form says why. */
export const invoiceFrom = (source: InvoiceSource | undefined): InvoiceInfo | false | undefined => (typeof source === "function" ? source() : source)
