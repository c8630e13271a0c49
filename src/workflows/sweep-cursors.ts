import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { z } from "zod"

/**
 * Where the service sweep of one provider stands between runs. It must
 * survive restarts and be shared by every process (the job may run in any
 * worker), and Medusa's cache and locking modules are neither durable nor
 * (in-memory) shared. A plugin module would need the merchant to register it
 * in medusa-config, so the plugin keeps one row per provider in a table of
 * its own in the store's database, created on first use.
 */
const TABLE = "medusa_payment_tw_sweep_cursor"

export const sweepStateSchema = z.object({
  /** Where the next run starts reading the service's list (provider-specific, opaque). */
  position: z.string().max(4_000).optional(),
  /** Payments already run through the pipeline, by service id, until when (ms) to skip them. */
  handled: z.record(z.string(), z.number()).default({}),
})

export type SweepState = z.output<typeof sweepStateSchema>

export class SweepCursors {
  readonly #db: Knex

  constructor(container: MedusaContainer) {
    this.#db = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  }

  /** The saved state of `key`; a fresh one when there is none or it cannot be read. */
  async load(key: string): Promise<SweepState> {
    await this.#ensureTable()
    const row = await this.#db(TABLE).where({ key }).first("state")
    const parsed = sweepStateSchema.safeParse(row?.state ?? {})
    return parsed.success ? parsed.data : { handled: {} }
  }

  async save(key: string, state: SweepState): Promise<void> {
    await this.#db(TABLE)
      .insert({ key, state: JSON.stringify(state), updated_at: new Date() })
      .onConflict("key")
      .merge(["state", "updated_at"])
  }

  /** Cheap when the table exists; run every time, since a test database can be rebuilt under a running process. */
  async #ensureTable(): Promise<void> {
    try {
      await this.#db.raw(`create table if not exists ${TABLE} (key text primary key, state jsonb not null, updated_at timestamptz not null)`)
    } catch (error) {
      // Two processes creating it at the same instant: one of them loses on the catalog's unique index, and the table exists.
      if (!(await this.#db.schema.hasTable(TABLE))) {
        throw error
      }
    }
  }
}
