import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { generateEntityId, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import TwRemittanceDue from "./models/remittance-due"
import TwSweepCursor from "./models/sweep-cursor"

export interface RemittanceDueInput {
  provider_key: string
  transaction_id: string
  transaction_hid: string
  amount: number
  payment_method: string
  session_id: string | null
  reason: string
}

/**
 * The reconciliation's own records: the sweeps' cursors (`writeCursor`) and
 * the money due for remittance (`recordRemittanceDue`), besides the generated
 * data methods. The sweep itself is a workflow.
 */
export default class TwPaymentSweepModuleService extends MedusaService({ TwSweepCursor, TwRemittanceDue }) {
  /** Records money due for remittance once per transaction, however often (and from however many processes) it is found. */
  @InjectManager()
  async recordRemittanceDue(input: RemittanceDueInput, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    await knex.raw(
      `insert into tw_remittance_due (id, provider_key, transaction_id, transaction_hid, amount, payment_method, session_id, reason)
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (transaction_id) where deleted_at is null do nothing`,
      [generateEntityId(undefined, "twrem"), input.provider_key, input.transaction_id, input.transaction_hid, input.amount, input.payment_method, input.session_id, input.reason]
    )
  }

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
