import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { z } from "zod"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../modules/tw-payment-sweep"

export const sweepStateSchema = z.object({
  /** Where the next run starts reading the service's list (provider-specific, opaque). */
  position: z.string().max(4_000).optional(),
  /** Payments already run through the pipeline, by service id, until when (ms) to skip them. */
  handled: z.record(z.string(), z.number()).default({}),
  /** Items whose run failed, by id, since when (ms): tried again each run (the walk of orders cut short). */
  retry: z.record(z.string(), z.number()).optional(),
})

export type SweepState = z.output<typeof sweepStateSchema>

const fresh = (): SweepState => ({ handled: {} })

/** A cursor's row before a save: its stored state (as stored, unchecked), or null when there was none. */
export type SavedCursor = { state: Record<string, unknown> } | null

/**
 * Where the service sweep of each provider stands between runs, kept by the
 * plugin's `tw_payment_sweep` module (its table comes with its migration).
 * A store that did not register the module sweeps its whole window every
 * run: slower, never wrong.
 */
export class SweepCursors {
  readonly #module: TwPaymentSweepModuleService | undefined
  readonly #logger: Logger

  constructor(container: MedusaContainer) {
    this.#module = container.hasRegistration(TW_PAYMENT_SWEEP_MODULE) ? container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE) : undefined
    this.#logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  }

  /** The saved state of `key`; a fresh one when there is none or it cannot be read. */
  async load(key: string): Promise<SweepState> {
    if (!this.#module) {
      this.#logger.warn("medusa-payment-tw: the tw_payment_sweep module is not registered; the service sweep starts over every run")
      return fresh()
    }
    const [row] = await this.#module.listTwSweepCursors({ id: key }, { take: 1 })
    const parsed = sweepStateSchema.safeParse(row?.state ?? {})
    return parsed.success ? parsed.data : fresh()
  }

  /** Saves `state`; answers the row as it was, for `restore`. */
  async save(key: string, state: SweepState): Promise<SavedCursor> {
    if (!this.#module) {
      return null
    }
    const [row] = await this.#module.listTwSweepCursors({ id: key }, { take: 1 })
    await this.#module.writeCursor(key, state)
    return row ? { state: row.state } : null
  }

  /** Puts a cursor back as `save` found it: its earlier state, or no row at all. */
  async restore(key: string, before: SavedCursor): Promise<void> {
    if (!this.#module) {
      return
    }
    if (before) {
      await this.#module.writeCursor(key, before.state)
    } else {
      await this.#module.deleteTwSweepCursors(key)
    }
  }
}
