import { model } from "@medusajs/framework/utils"

/**
 * Money the store must return but cannot by itself: a convenience-store code
 * or bank transfer paid for a session the store no longer has, or for a cart
 * it could not place. The service returns such payments only by remittance to
 * the shopper's bank account (hosted spec 4.10), which the merchant asks the
 * shopper for; `refunded_at` is set once the refund is made.
 */
const TwRemittanceDue = model
  .define("tw_remittance_due", {
    id: model.id({ prefix: "twrem" }).primaryKey(),
    /** `{identifier}_{id}` of the hosted-checkout provider that took the payment. */
    provider_key: model.text(),
    transaction_id: model.text(),
    transaction_hid: model.text(),
    /** Whole TWD. */
    amount: model.number(),
    /** `cvs` or `atm`. */
    payment_method: model.text(),
    /** The session the payment was made for (it may be gone). */
    session_id: model.text().nullable(),
    /** Why the store holds no order for it, as logged. */
    reason: model.text(),
    refunded_at: model.dateTime().nullable(),
  })
  .indexes([{ on: ["transaction_id"], unique: true, where: "deleted_at IS NULL" }])
export default TwRemittanceDue
