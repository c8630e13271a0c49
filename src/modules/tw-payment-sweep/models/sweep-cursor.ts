import { model } from "@medusajs/framework/utils"

/**
 * Where the service sweep of one provider stands between runs (one row per
 * provider and service account). In the store's database, because it must
 * survive restarts and be shared by every process the job may run in.
 */
const TwSweepCursor = model.define("tw_sweep_cursor", {
  /** The provider's key and service account (`SweepCursors` names it). */
  id: model.text().primaryKey(),
  /** `SweepState`, checked with its schema when read. */
  state: model.json(),
})
export default TwSweepCursor
