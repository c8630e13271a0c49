import type { ILockingModule, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { untrusted } from "../lib/log"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../modules/tw-payment-sweep"

/** A claim is held, and a delivery recognised as a repeat, for two days: longer than any service retries. */
const CLAIM_SECONDS = 48 * 3600
/** How long a copy waits for another copy about the same payment to finish (a completion can retry for ~30 s). */
const LEASE_WAIT_SECONDS = 120
/**
 * A lease's life between renewals: the locking module renews it every third of that while its holder works
 * (Redis), however long a completion takes, so a holder that died (a SIGKILLed server) frees it this soon,
 * and the queued copy waiting on it goes ahead.
 */
const LEASE_SECONDS = 15

const lockingOf = (container: MedusaContainer): ILockingModule => container.resolve(Modules.LOCKING)
const claimKey = (provider: string, key: string) => `medusa-payment-tw:delivery:${provider}:${key}`
const leaseKey = (provider: string, scope: string) => `medusa-payment-tw:delivery-lease:${provider}:${scope}`
/** Stored markers' keys (rows of `tw_delivery_marker`): a delivery done, a scope read. */
const doneKey = (provider: string, key: string) => `delivery:${provider}:${key}`
const readWindowKey = (provider: string, scope: string) => `delivery-read:${provider}:${scope}`

type Markers = Pick<TwPaymentSweepModuleService, "setMarkerOnce" | "extendMarker" | "hasMarker">
let warnedNoMarkers = false

/**
 * The stored markers: rows of the plugin's `tw_payment_sweep` module, in the
 * store's database, so every process sees them and a restart keeps them. A
 * store that did not register the module keeps none: every copy is read and
 * handled (slower, never wrong: the workflow finds what a copy before it did).
 */
function markersOf(container: MedusaContainer, logger: Logger): Markers | undefined {
  if (container.hasRegistration(TW_PAYMENT_SWEEP_MODULE)) {
    return container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
  }
  if (!warnedNoMarkers) {
    warnedNoMarkers = true
    logger.warn("medusa-payment-tw: the tw_payment_sweep module is not registered; every copy of a delivery is read and handled")
  }
  return undefined
}

/** A claim's lock as data, so a workflow step's compensation can give it back (`releaseDeliveryClaim`). */
export interface ClaimLock {
  key: string
  ownerId: string
}

export interface DeliveryClaim {
  lock: ClaimLock
  /** Gives the delivery back, so a retry of it is processed (after a failure). */
  release(): Promise<void>
}

/** Gives a claimed delivery back, so a retry of it is processed. */
export async function releaseDeliveryClaim(container: MedusaContainer, { key, ownerId }: ClaimLock): Promise<void> {
  await lockingOf(container).release(key, { ownerId })
}

/**
 * Claims a delivery so it is processed once, whichever process receives it
 * and however often the service sends it. The claim is a lock in Medusa's
 * locking module, held for two days unless given back (`release`, a step's
 * compensation): in memory for a single process, in Redis (or PostgreSQL)
 * once the store runs several processes, as the production profile requires.
 * Undefined when someone else holds it. Only for keys that are verified facts
 * (a signed event's id): an unverified key would let a forgery stand in for
 * the real delivery (see `handleDeliveryOnce`).
 */
export async function claimDelivery(container: MedusaContainer, provider: string, key: string): Promise<DeliveryClaim | undefined> {
  const locking = lockingOf(container)
  const lockKey = claimKey(provider, key)
  const ownerId = randomUUID()
  try {
    await locking.acquire(lockKey, { ownerId, expire: CLAIM_SECONDS })
  } catch {
    return undefined
  }
  const lock = { key: lockKey, ownerId }
  return { lock, release: () => releaseDeliveryClaim(container, lock) }
}

export interface DeliveryOnce {
  /** The plugin provider's key: claims are kept per provider. */
  provider: string
  /** What the delivery is about (a transaction, an intent, a subscription): copies about it run one at a time. */
  scope: string
  /** The delivery's key, as its body gives it. */
  key: string
  /**
   * Acts on the delivery from a fresh read; answers the keys of what that
   * read verified was handled. Only those are kept as done, so a forged body
   * is never taken for the real delivery it imitates.
   */
  handle: () => Promise<string[]>
  /**
   * Another copy of this delivery is queued and will wait its turn (the
   * server's own share): when the scope is busy, leave it to that copy
   * instead of holding a slot while waiting.
   */
  queuedElsewhere?: boolean
  /**
   * The milliseconds every copy waits between its arrival and its handling
   * (the intake's delay). A read of the scope that began within that time
   * began after an unverified copy (an unsigned body) arrived, so it already
   * saw whatever that copy can report: the copy is skipped unread. So one id
   * costs at most one read per delay, however many bodies name it, and a real
   * delivery is never held back: the read that covers it came after it did.
   */
  delayMs?: number
  /** Verified by its signature: its key is a fact, and it is never skipped as covered. */
  signed?: boolean
}

/** `busy`: left to the queued copy (`queuedElsewhere`). `covered`: a read made after this copy arrived already acted on its scope. */
export type DeliveryOutcome = "handled" | "repeat" | "busy" | "covered"

/**
 * Handles a delivery unless one of the same key is already done. Copies
 * about one scope (the server's and the worker's, a repeat, a forgery) take
 * turns under a short lease (the locking module), so a copy that arrives while
 * another is in flight waits and then checks again: a repeat of what that copy
 * verified costs nothing, anything else is read afresh. The done markers
 * (stored rows, `markersOf`) are set only after the read that verified them
 * was acted on; a failure sets none and is rethrown.
 */
export async function handleDeliveryOnce(container: MedusaContainer, delivery: DeliveryOnce): Promise<DeliveryOutcome> {
  const locking = lockingOf(container)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const markers = markersOf(container, logger)
  const lease = leaseKey(delivery.provider, delivery.scope)
  if (!delivery.queuedElsewhere) {
    return locking.execute(lease, () => handleLeased(markers, logger, delivery), { timeout: LEASE_WAIT_SECONDS, expire: LEASE_SECONDS })
  }
  // A server's own share: only when the lease is free within the module's shortest wait; otherwise the
  // queued copy handles it.
  let leased = false
  try {
    return await locking.execute(
      lease,
      () => {
        leased = true
        return handleLeased(markers, logger, delivery)
      },
      { timeout: 1, expire: LEASE_SECONDS }
    )
  } catch (error) {
    if (!leased) {
      return "busy"
    }
    throw error
  }
}

/** Asked and set under the scope's lease, so no other copy about the scope checks or sets them meanwhile. */
async function handleLeased(markers: Markers | undefined, logger: Logger, { provider, scope, key, handle, delayMs, signed }: DeliveryOnce): Promise<DeliveryOutcome> {
  if (markers && (await markers.hasMarker(doneKey(provider, key)))) {
    return "repeat"
  }
  if (markers && delayMs && !signed && (await markers.hasMarker(readWindowKey(provider, scope)))) {
    return "covered"
  }
  const readStarted = Date.now()
  const verified = await handle()
  if (markers) {
    // Handled whatever happens next: a marker not set only costs the next copy a read.
    const kept = (marking: Promise<unknown>) =>
      marking.catch((error: Error) => logger.warn(`${provider}: a delivery marker was not stored (the next copy is read): ${untrusted(error.message, 300)}`))
    // Already set: an earlier run of the same fact, whose marker stands.
    await Promise.all(verified.map((done) => kept(markers.setMarkerOnce(doneKey(provider, done), CLAIM_SECONDS * 1000))))
    if (delayMs) {
      await kept(markRead(markers, readWindowKey(provider, scope), readStarted + delayMs))
    }
  }
  return "handled"
}

/**
 * Marks the scope read until one delay after the read began (whole seconds, rounded down: a shorter
 * window only costs a read; a later window already set stands). Set once the read was acted on, so a
 * failed run covers nothing.
 */
async function markRead(markers: Markers, key: string, until: number): Promise<void> {
  const seconds = Math.floor((until - Date.now()) / 1000)
  if (seconds >= 1) {
    await markers.extendMarker(key, seconds * 1000)
  }
}
