import { model } from "@medusajs/framework/utils"

/**
 * Counts per minute of what leaves no row of its own: deliveries by kind and
 * verdict, payments that failed. One row per (minute, provider, figure, key),
 * so a week is at most 10,080 rows a key, however busy the store.
 */
const TwHealthTally = model
  .define("tw_health_tally", {
    id: model.id({ prefix: "twtly" }).primaryKey(),
    minute: model.dateTime(),
    provider_key: model.text(),
    /** `delivery` or `payment`. */
    figure: model.text(),
    /** `<kind>:<verdict>` for a delivery, the outcome for a payment. */
    key: model.text(),
    count: model.number().default(0),
  })
  .indexes([{ on: ["minute", "provider_key", "figure", "key"], unique: true }])
export default TwHealthTally
