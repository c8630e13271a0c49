/**
 * What the kit throws: a message for the shopper, a `code` to pick a
 * translated message by (the server's own when its answer carried one,
 * else the kit's), and the HTTP status when the store answered.
 */
export class TwPaymentError extends Error {
  override readonly name = "TwPaymentError"
  readonly code: string | undefined
  readonly status: number | undefined

  constructor(message: string, options: { code?: string; status?: number } = {}) {
    super(message)
    this.code = options.code
    this.status = options.status
  }
}

/**
 * The codes the kit gives itself. Each is one of the plugin's shopper codes
 * (the `code` its store answers carry) where one fits, so that one catalogue
 * of messages translates both.
 */
export const KIT_ERROR_CODES = {
  /** The store's answer lacks what the provider writes (a payment page, a card session): the shop must look. */
  paymentUnavailable: "payment_unavailable",
  /** Something the storefront would send is refused (a return path off the storefront). */
  paymentDataInvalid: "payment_data_invalid",
  /** The e-invoice choice: a carrier, a company tax id, or another field, as the provider refuses them. */
  invoiceCarrierInvalid: "invoice_carrier_invalid",
  invoiceTaxIdInvalid: "invoice_tax_id_invalid",
  invoiceInvalid: "invoice_invalid",
  /** A saved card's charge was refused and the answer's own code did not reach the kit. */
  cardDeclined: "card_declined",
  /**
   * The kit's own: the store did not place the order because the payment is
   * not made, and no reason is recorded (a hosted page left unpaid, an intent
   * never confirmed). The cart can be paid again.
   */
  paymentNotCompleted: "payment_not_completed",
} as const
