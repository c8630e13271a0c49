import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

/** A lock nobody holds can be taken at once. */
export async function lockIsFree(container: MedusaContainer, key: string) {
  const locking = container.resolve(Modules.LOCKING)
  await locking.acquire(key, { ownerId: "test-probe", expire: 5 })
  await locking.release(key, { ownerId: "test-probe" })
  return true
}

/**
 * The first release of `key` fails (a workflow's last step, `releaseLockStep`); every other call reaches the
 * locking module, the compensation of the workflow's `acquireLockStep` among them.
 */
export function failLockRelease(container: MedusaContainer, key: string) {
  const locking = container.resolve(Modules.LOCKING)
  const release = locking.release.bind(locking)
  let failed = false
  return jest.spyOn(locking, "release").mockImplementation(async (keys, args) => {
    if (!failed && [keys].flat().includes(key)) {
      failed = true
      throw new Error("forced: the lock store went away")
    }
    return release(keys, args)
  })
}
