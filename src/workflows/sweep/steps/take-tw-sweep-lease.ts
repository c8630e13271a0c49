import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { randomUUID } from "node:crypto"

/** A sweep holds its provider for at most this long; a crashed run's hold lapses by itself. */
const SWEEP_LEASE_SECONDS = 600

interface Lease {
  held: boolean
  ownerId: string
}
/** What the compensation gives back: nothing when the lease was not taken. */
type Taken = { key: string; ownerId: string } | null

export const sweepLeaseKey = (provider: string) => `medusa-payment-tw:sweep:${provider}`

/**
 * One sweep per provider at a time, across processes (a one-off run may
 * meet the scheduled one). Unlike core's `acquireLockStep`, a sweep already
 * running is no failure: `held` is false and this run does nothing. The
 * owner id is this run's own, so only this run (`releaseLockStep`, or this
 * compensation) gives the lease back.
 */
export const takeSweepLeaseStep = createStep(
  "take-tw-sweep-lease",
  async ({ key }: { key: string }, { container }) => {
    const ownerId = randomUUID()
    try {
      await container.resolve(Modules.LOCKING).acquire(key, { ownerId, expire: SWEEP_LEASE_SECONDS })
    } catch {
      return new StepResponse<Lease, Taken>({ held: false, ownerId }, null)
    }
    return new StepResponse<Lease, Taken>({ held: true, ownerId }, { key, ownerId })
  },
  async (taken, { container }) => {
    if (taken) {
      await container.resolve(Modules.LOCKING).release(taken.key, { ownerId: taken.ownerId })
    }
  }
)
