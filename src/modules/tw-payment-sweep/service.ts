import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { generateEntityId, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import type { PlacementPath } from "../../shared/health-views"
import { healthOptions, type HealthOptions } from "./health-options"
import TwDeliveryMarker from "./models/delivery-marker"
import TwHealthTally from "./models/health-tally"
import TwHealthWarning from "./models/health-warning"
import TwOrderPlacement from "./models/order-placement"
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

export interface OrderPlacementInput {
  order_id: string
  provider_key: string
  path: PlacementPath
  awaiting: boolean
  paid_at: Date | null
  placed_at: Date
}

export interface TallyInput {
  provider_key: string
  figure: "delivery" | "payment"
  key: string
}

export interface PlacementRow {
  path: PlacementPath
  count: number
  p50: number | null
  p95: number | null
}

const number = (value: unknown) => Number(value ?? 0)
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10)

/**
 * The reconciliation's own records: the sweeps' cursors (`writeCursor`), the
 * money due for remittance (`recordRemittanceDue`), the delivery pipeline's
 * markers (`setMarkerOnce`, `extendMarker`, `hasMarker`), and what the
 * payments health page counts (order placements, tallies, warnings), besides
 * the generated data methods. The sweep itself is a workflow. Its options are
 * the health rules' thresholds, checked at boot.
 */
export default class TwPaymentSweepModuleService extends MedusaService({ TwSweepCursor, TwRemittanceDue, TwDeliveryMarker, TwOrderPlacement, TwHealthTally, TwHealthWarning }) {
  protected readonly health_: HealthOptions

  constructor(cradle: Record<string, unknown>, options: unknown) {
    super(cradle)
    this.health_ = healthOptions(options)
  }

  /** The health rules' thresholds, defaults filled in. */
  healthOptions(): HealthOptions {
    return this.health_
  }

  /**
   * Records how an order was placed; answers whether the row is new. `override`: the path of the step that
   * placed it replaces one an `order.placed` reader guessed first.
   */
  @InjectManager()
  async recordOrderPlacement(input: OrderPlacementInput, override: boolean, @MedusaContext() sharedContext: Context = {}): Promise<boolean> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const seconds = input.paid_at && !input.awaiting ? Math.max(0, Math.round((input.placed_at.getTime() - input.paid_at.getTime()) / 1000)) : null
    const { rows } = await knex.raw(
      `insert into tw_order_placement (id, order_id, provider_key, path, awaiting, paid_at, placed_at, seconds)
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (order_id) where deleted_at is null
       ${override ? "do update set path = excluded.path, paid_at = coalesce(excluded.paid_at, tw_order_placement.paid_at), seconds = coalesce(excluded.seconds, tw_order_placement.seconds), updated_at = now()" : "do nothing"}
       returning (xmax = 0) as inserted`,
      [generateEntityId(undefined, "twplc"), input.order_id, input.provider_key, input.path, input.awaiting, input.paid_at, input.placed_at, seconds]
    )
    return !!rows[0]?.inserted
  }

  /** Counts one event in its minute's bucket. */
  @InjectManager()
  async tally(input: TallyInput, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    await knex.raw(
      `insert into tw_health_tally (id, minute, provider_key, figure, key, count) values (?, date_trunc('minute', now()), ?, ?, ?, 1)
       on conflict (minute, provider_key, figure, key) do update set count = tw_health_tally.count + 1, updated_at = now()`,
      [generateEntityId(undefined, "twtly"), input.provider_key, input.figure, input.key]
    )
  }

  /** The tallies of a figure since a time, summed by provider and key, with the latest minute each was counted in. */
  @InjectManager()
  async tallies(figure: TallyInput["figure"], since: Date, @MedusaContext() sharedContext: Context = {}): Promise<Array<{ provider_key: string; key: string; count: number; last: Date }>> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const { rows } = await knex.raw(
      `select provider_key, key, sum(count) as count, max(minute) as last from tw_health_tally where figure = ? and minute >= date_trunc('minute', ?::timestamptz) and deleted_at is null group by provider_key, key`,
      [figure, since]
    )
    return (rows as Array<{ provider_key: string; key: string; count: unknown; last: string | Date }>).map((row) => ({ ...row, count: number(row.count), last: new Date(row.last) }))
  }

  /** Orders placed since a time, by path: how many, and the payment-to-order time's p50 and p95. */
  @InjectManager()
  async placementFigures(since: Date, @MedusaContext() sharedContext: Context = {}): Promise<{ rows: PlacementRow[]; awaiting: number }> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const { rows } = await knex.raw(
      `select path, count(*) as count, sum(case when awaiting then 1 else 0 end) as awaiting,
              percentile_cont(0.5) within group (order by seconds) as p50, percentile_cont(0.95) within group (order by seconds) as p95
       from tw_order_placement where placed_at >= ? and deleted_at is null group by path`,
      [since]
    )
    const all = rows as Array<{ path: PlacementPath; count: unknown; awaiting: unknown; p50: unknown; p95: unknown }>
    return {
      rows: all.map((row) => ({ path: row.path, count: number(row.count), p50: numberOrNull(row.p50), p95: numberOrNull(row.p95) })),
      awaiting: all.reduce((sum, row) => sum + number(row.awaiting), 0),
    }
  }

  /** The paths of the latest orders placed since a time, newest first. */
  @InjectManager()
  async latestPlacementPaths(since: Date, limit: number, @MedusaContext() sharedContext: Context = {}): Promise<PlacementPath[]> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const rows = await knex("tw_order_placement").select("path").where("placed_at", ">=", since).whereNull("deleted_at").orderBy("placed_at", "desc").limit(limit)
    return rows.map((row: { path: PlacementPath }) => row.path)
  }

  /** Writes warnings whole, created or replaced (on, or on again). */
  @InjectManager()
  async writeHealthWarnings(rows: Array<{ id: string; started_at: Date; cleared_at: Date | null; figure: number }>, @MedusaContext() sharedContext: Context = {}): Promise<void> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    await knex("tw_health_warning")
      .insert(rows)
      .onConflict("id")
      .merge(["started_at", "cleared_at", "figure"])
  }

  /** The money due for remittance now: how many, how much, since when. */
  @InjectManager()
  async remittancesDue(@MedusaContext() sharedContext: Context = {}): Promise<{ count: number; amount: number; oldest: Date | null }> {
    const knex = (sharedContext.manager as SqlEntityManager).getKnex()
    const { rows } = await knex.raw(`select count(*) as count, coalesce(sum(amount), 0) as amount, min(created_at) as oldest from tw_remittance_due where refunded_at is null and deleted_at is null`)
    return { count: number(rows[0]?.count), amount: number(rows[0]?.amount), oldest: rows[0]?.oldest ? new Date(rows[0].oldest) : null }
  }

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
