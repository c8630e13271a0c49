import type { EventEmitter } from "node:events"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

/**
 * What the test app's event bus still has to do. The plugin's delivery intake
 * answers 200 at once and hands the delivery to the bus with a delay, so neither
 * the sender nor the test can see when the store has acted on it; this counts
 * it instead:
 * - events handed to the bus and not yet published (waiting for their delay);
 * - subscriber runs started and not yet returned.
 *
 * It reads the local event bus (the one the test runner's app uses) the way
 * Medusa's own `waitSubscribersExecution` test helper does: through its event
 * emitter, whose listeners it wraps. Subscribers registered after `watchEventBus`
 * are not counted; the app registers all of its own at boot.
 */
export interface EventBusActivity {
  /** Events handed to the bus since watching began (a counter that only grows). */
  readonly emitted: number
  /** Every event handed to the bus is published, and every subscriber run has returned. */
  idle(): boolean
  /** Resolves once idle; rejects after `timeoutMs` with what is still going on. */
  whenIdle(timeoutMs: number, waitingFor: string): Promise<void>
}

interface BusEvent {
  metadata?: { eventGroupId?: string }
}

/** The parts of `@medusajs/event-bus-local`'s service this reads (`eventEmitter_` is not public API). */
interface LocalEventBus {
  eventEmitter_?: EventEmitter
  emit(events: BusEvent | BusEvent[], options?: unknown): Promise<void>
  addInterceptor(interceptor: (message: unknown, context?: { isGrouped?: boolean }) => void): unknown
}

/** The part of `@medusajs/event-bus-redis`'s service this reads: its BullMQ queue (`queue_`, not public API). */
interface RedisEventBus {
  queue_: { getJobCounts(...states: string[]): Promise<Record<string, number>> }
  emit(events: BusEvent | BusEvent[], options?: unknown): Promise<void>
}

type Listener = (...args: unknown[]) => unknown

const watched = new WeakMap<object, EventBusActivity>()

/** Starts counting (once per app; later calls return the same counter). Call it before the events of interest. */
export function watchEventBus(container: MedusaContainer): EventBusActivity {
  const bus = container.resolve(Modules.EVENT_BUS) as unknown as LocalEventBus | RedisEventBus
  const existing = watched.get(bus)
  if (existing) {
    return existing
  }
  if ("queue_" in bus) {
    const activity = watchRedisQueue(bus)
    watched.set(bus, activity)
    return activity
  }
  const emitter = bus.eventEmitter_
  if (!emitter) {
    throw new Error("watchEventBus knows the local and the Redis event bus only; this app runs another event bus")
  }

  let emitted = 0
  let published = 0
  let running = 0
  const wakeUps = new Set<() => void>()
  const changed = () => wakeUps.forEach((wake) => wake())

  // Grouped events are held until their workflow releases them (or never, if it fails): only
  // ungrouped ones are counted from emit to publication; every subscriber run is counted.
  const emit = bus.emit.bind(bus)
  bus.emit = (events, options) => {
    emitted += [events].flat().filter((event) => !event.metadata?.eventGroupId).length
    return emit(events, options)
  }
  bus.addInterceptor((_message, context) => {
    if (!context?.isGrouped) {
      published++
      changed()
    }
  })
  for (const name of emitter.eventNames()) {
    for (const listener of emitter.listeners(name) as Listener[]) {
      // Returns the run's promise as the original does (Medusa's waitSubscribersExecution awaits it).
      const counted: Listener = async (...args) => {
        running++
        try {
          return await listener(...args)
        } finally {
          running--
          changed()
        }
      }
      // Keeps `subscriberId`, by which the bus finds a listener to unsubscribe it.
      Object.assign(counted, listener)
      emitter.removeListener(name, listener)
      emitter.on(name, counted)
    }
  }

  const idle = () => published >= emitted && running === 0
  const activity: EventBusActivity = {
    get emitted() {
      return emitted
    },
    idle,
    async whenIdle(timeoutMs, waitingFor) {
      const deadline = Date.now() + timeoutMs
      // Checked again after every wake-up: a publication is counted just before its subscribers start.
      while (!idle()) {
        const left = deadline - Date.now()
        if (left <= 0) {
          throw new Error(
            `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${waitingFor}: ` +
              `${emitted - published} event(s) still waiting for their delay, ${running} subscriber run(s) still going`
          )
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(wake, left)
          function wake() {
            clearTimeout(timer)
            wakeUps.delete(wake)
            resolve()
          }
          wakeUps.add(wake)
        })
      }
    },
  }
  watched.set(bus, activity)
  return activity
}

/** The jobs of the Redis bus's queue that are still to run: delayed (a delivery's wait, a retry's backoff), queued, running. */
const PENDING_STATES = ["waiting", "delayed", "active", "prioritized", "waiting-children", "paused"]

/**
 * The same for the production profile's Redis event bus (an app with REDIS_URL): every event
 * becomes a BullMQ job, so the queue's counts say what is left. Polled, since BullMQ
 * tells no listener in this process when a job of another worker ends.
 */
function watchRedisQueue(bus: RedisEventBus): EventBusActivity {
  let emitted = 0
  const emit = bus.emit.bind(bus)
  bus.emit = (events, options) => {
    emitted += [events].flat().filter((event) => !event.metadata?.eventGroupId).length
    return emit(events, options)
  }
  let lastPending = 0
  const pending = async () => {
    const counts = await bus.queue_.getJobCounts(...PENDING_STATES)
    lastPending = Object.values(counts).reduce((sum, n) => sum + n, 0)
    return lastPending
  }
  return {
    get emitted() {
      return emitted
    },
    idle: () => lastPending === 0,
    async whenIdle(timeoutMs, waitingFor) {
      const deadline = Date.now() + timeoutMs
      // Twice empty in a row: a subscriber that just ended may be about to add the next job.
      for (let empty = 0; empty < 2; ) {
        empty = (await pending()) === 0 ? empty + 1 : 0
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${waitingFor}: ${lastPending} job(s) of the Redis event bus still to run`)
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
}
