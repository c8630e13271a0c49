import { model } from "@medusajs/framework/utils"

export const SAVED_CARD_CHARGE_STATUSES = ["charging", "paid", "declined", "unknown"] as const
export type SavedCardChargeStatus = (typeof SAVED_CARD_CHARGE_STATUSES)[number]

/**
 * One off-session charge of a saved card (`POST /token/transactions`) for a
 * payment session. **Unique per payment session**: the row is written before
 * the service is called, so a second authorization of the same session (a
 * double click, two processes) finds it instead of charging again. The hosted
 * API has no idempotency, so this row is the only guard.
 */
const TwSavedCardCharge = model
  .define("tw_saved_card_charge", {
    id: model.id({ prefix: "twchg" }).primaryKey(),
    payment_session_id: model.text(),
    saved_card_id: model.text().index(),
    /** The service's `orderId` of the charge: how its transactions are listed after an unknown outcome. */
    service_order_id: model.text(),
    status: model.enum([...SAVED_CARD_CHARGE_STATUSES]).default("charging"),
    /** The P transaction number, once known. */
    transaction_id: model.text().nullable(),
    /** Whole TWD. */
    amount: model.number(),
    /** The service's error code of a decline (`T0001`...) or of an unknown outcome (`C026`). */
    code: model.text().nullable(),
    message: model.text().nullable(),
  })
  .indexes([{ on: ["payment_session_id"], unique: true, where: "deleted_at IS NULL" }])
export default TwSavedCardCharge
