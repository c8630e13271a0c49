import { model } from "@medusajs/framework/utils"
import { PLACEMENT_PATHS } from "../../../shared/health-views"

/**
 * How one order of a plugin payment was placed (the shopper's return, a
 * notification or webhook, or the reconciliation) and how long after the
 * payment: the health page's shares and times, without reading the order
 * table. One row per order, written by the steps that place orders.
 */
const TwOrderPlacement = model
  .define("tw_order_placement", {
    id: model.id({ prefix: "twplc" }).primaryKey(),
    order_id: model.text(),
    provider_key: model.text(),
    path: model.enum([...PLACEMENT_PATHS]),
    /** The order awaits its payment (a cvs/atm code, an intent processing). */
    awaiting: model.boolean().default(false),
    paid_at: model.dateTime().nullable(),
    placed_at: model.dateTime(),
    /** Seconds from the payment to its order; null when the service gives no payment time or the order came first. */
    seconds: model.number().nullable(),
  })
  .indexes([
    { on: ["order_id"], unique: true, where: "deleted_at IS NULL" },
    { on: ["placed_at"] },
  ])
export default TwOrderPlacement
