import { model } from "@medusajs/framework/utils"

/** A health rule whose warning is on (`cleared_at` null) or was last on: a start and a clear are logged once. */
const TwHealthWarning = model.define("tw_health_warning", {
  /** The rule's id (`HEALTH_RULES`). */
  id: model.text().primaryKey(),
  started_at: model.dateTime(),
  cleared_at: model.dateTime().nullable(),
  /** The figure that tripped it, as `HealthWarning.figure`. */
  figure: model.number(),
})
export default TwHealthWarning
