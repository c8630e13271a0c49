import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"

/** A delivery is recognised as a repeat for two days: longer than any service retries. */
const CLAIM_SECONDS = 48 * 3600

export interface DeliveryClaim {
  /** Gives the delivery back, so a retry of it is processed (after a failure). */
  release(): Promise<void>
}

/**
 * Claims a delivery so it is processed once, whichever process receives it
 * and however often the service sends it. The claim is a lease in Medusa's
 * locking module: in memory for a single process, in Redis (or PostgreSQL)
 * once the store runs several processes, as the production profile requires.
 * Undefined when someone else holds it.
 */
export async function claimDelivery(container: MedusaContainer, provider: string, key: string): Promise<DeliveryClaim | undefined> {
  const locking = container.resolve(Modules.LOCKING)
  const lockKey = `medusa-payment-tw:delivery:${provider}:${key}`
  const ownerId = randomUUID()
  try {
    await locking.acquire(lockKey, { ownerId, expire: CLAIM_SECONDS })
  } catch {
    return undefined
  }
  return {
    release: async () => {
      await locking.release(lockKey, { ownerId })
    },
  }
}
