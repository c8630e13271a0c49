import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { type SavedCursor, SweepCursors, type SweepState } from "../../../reconciliation/sweep-cursors"

/**
 * Saves where the next sweep starts. Undone when a later step fails: the
 * cursor goes back to where this run found it (or away, if there was none),
 * so the next run reads the same pages again, which the pipeline makes safe.
 */
export const advanceSweepCursorStep = createStep(
  "advance-tw-sweep-cursor",
  async ({ key, state }: { key: string; state: SweepState }, { container }) => {
    const before = await new SweepCursors(container).save(key, state)
    return new StepResponse(undefined, { key, before })
  },
  async (saved: { key: string; before: SavedCursor } | undefined, { container }) => {
    if (saved) {
      await new SweepCursors(container).restore(saved.key, saved.before)
    }
  }
)
