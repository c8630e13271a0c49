import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import TwSweepCursor from "./models/sweep-cursor"

/** The sweep's cursors: the generated data methods and `writeCursor`. The sweep itself is a workflow. */
export default class TwPaymentSweepModuleService extends MedusaService({ TwSweepCursor }) {
  /**
   * Stores a cursor's whole state in one statement, created or replaced. Not
   * the generated `updateTwSweepCursors`: it merges a JSON object into the
   * stored one, so payments the new state forgot, or a position it dropped,
   * would stay.
   */
  @InjectManager()
  async writeCursor(id: string, state: Record<string, unknown>, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const manager = sharedContext.manager as SqlEntityManager
    const json = JSON.stringify(state)
    await manager
      .getKnex()("tw_sweep_cursor")
      .insert({ id, state: json })
      .onConflict("id")
      .merge({ state: json, updated_at: new Date(), deleted_at: null })
  }
}
