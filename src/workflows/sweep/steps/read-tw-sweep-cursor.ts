import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { SweepCursors } from "../../../reconciliation/sweep-cursors"
import { sweepProvider } from "../../../reconciliation/sweep-provider"

/** Where the last sweep of the provider's service account left off (a fresh state when none did). Only reads. */
export const readSweepCursorStep = createStep("read-tw-sweep-cursor", async ({ provider }: { provider: string }, { container }) => {
  const { key, api } = sweepProvider(container, provider)
  // One cursor per provider and service account: a provider moved to another account starts afresh.
  const cursorKey = `${key}@${api.account}`
  return new StepResponse({ key: cursorKey, state: await new SweepCursors(container).load(cursorKey) })
})
