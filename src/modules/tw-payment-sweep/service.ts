import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { generateEntityId, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import TwDeliveryMarker from "./models/delivery-marker"
import TwRemittanceDue from "./models/remittance-due"
import TwSweepCursor from "./models/sweep-cursor"

/** Expired markers a write removes besides its own: more than a write adds, so the table holds little beyond live markers. */
const EXPIRED_PER_WRITE = 10

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
 * The reconciliation's own records: the sweeps' cursors (`writeCursor`), the
 * money due for remittance (`recordRemittanceDue`) and the delivery
 * pipeline's markers (`setMarkerOnce`, `extendMarker`, `hasMarker`), besides
 * the generated data methods. The sweep itself is a workflow.
 */
export default class TwPaymentSweepModuleService extends MedusaService({ TwSweepCursor, TwRemittanceDue, TwDeliveryMarker }) {
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

  /**
   * Sets the marker `key` for `ms` milliseconds unless it is set already: the
   * first mark stands until it expires, however many processes mark it at
   * once (one row per key; an expired or deleted row counts as absent and is
   * replaced). Answers whether this call set it. Times are the database's.
   */
  @InjectManager()
  async setMarkerOnce(key: string, ms: number, @MedusaContext() sharedContext: Context = {}): Promise<boolean> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const { rows } = (await knex.raw(
      `insert into tw_delivery_marker (id, expires_at) values (?, now() + ? * interval '1 millisecond')
       on conflict (id) do update set expires_at = excluded.expires_at, updated_at = now(), deleted_at = null
       where tw_delivery_marker.expires_at <= now() or tw_delivery_marker.deleted_at is not null
       returning id`,
      [key, Math.max(0, Math.floor(ms))]
    )) as { rows: unknown[] }
    await this.removeExpiredMarkers(knex)
    return rows.length > 0
  }

  /** Sets the marker `key` until `ms` milliseconds from now, or leaves it when it is set until later. */
  @InjectManager()
  async extendMarker(key: string, ms: number, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    await knex.raw(
      `insert into tw_delivery_marker (id, expires_at) values (?, now() + ? * interval '1 millisecond')
       on conflict (id) do update set updated_at = now(), deleted_at = null,
         expires_at = greatest(case when tw_delivery_marker.deleted_at is null then tw_delivery_marker.expires_at end, excluded.expires_at)`,
      [key, Math.max(0, Math.floor(ms))]
    )
    await this.removeExpiredMarkers(knex)
  }

  /** Whether the marker `key` is set and unexpired. */
  @InjectManager()
  async hasMarker(key: string, @MedusaContext() sharedContext: Context = {}): Promise<boolean> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const { rows } = (await knex.raw(`select 1 from tw_delivery_marker where id = ? and expires_at > now() and deleted_at is null`, [key])) as { rows: unknown[] }
    return rows.length > 0
  }

  /**
   * Removes a few expired markers, after a write and in a statement of its
   * own: rows another statement is removing are skipped, so writers never
   * wait on each other here, and the table stays about as large as its live markers.
   */
  private async removeExpiredMarkers(knex: ReturnType<SqlEntityManager["getKnex"]>): Promise<void> {
    await knex.raw(
      `delete from tw_delivery_marker where id in (
         select id from tw_delivery_marker where expires_at <= now() and deleted_at is null order by expires_at limit ? for update skip locked)`,
      [EXPIRED_PER_WRITE]
    )
  }
}
