import type { Persistable } from "./state"

/**
 * Sandbox time: real time plus an offset. Tests and the control API move it
 * forward to reach page expiry, 3-D Secure abandonment, code expiry, recurring
 * charges and notification retries without waiting; the offset is persisted so a
 * restarted sandbox keeps its place in time.
 */
export class SandboxClock implements Persistable {
  readonly name = "clock"
  private offsetMs = 0
  private pinnedAt: number | undefined

  constructor(private readonly realNow: () => number = Date.now) {}

  nowMs(): number {
    return this.pinnedAt ?? this.realNow() + this.offsetMs
  }

  /**
   * Runs `work` with the clock reading exactly `at` (for its synchronous part), so
   * due work stamps its records with its due time, not a millisecond later.
   * Nothing else can observe the pin: JavaScript runs one thing at a time.
   */
  pinned<T>(at: number, work: () => T): T {
    this.pinnedAt = at
    try {
      return work()
    } finally {
      this.pinnedAt = undefined
    }
  }

  now(): Date {
    return new Date(this.nowMs())
  }

  /** Moves forward only: going back would let due work run twice or out of order. */
  moveTo(ms: number): void {
    if (ms > this.nowMs()) {
      this.offsetMs = ms - this.realNow()
    }
  }

  get offset(): number {
    return this.offsetMs
  }

  dump(): unknown {
    return { offsetMs: this.offsetMs }
  }

  load(data: unknown): void {
    const offset = (data as { offsetMs?: unknown } | undefined)?.offsetMs
    if (typeof offset === "number" && Number.isFinite(offset)) {
      this.offsetMs = offset
    }
  }

  /** A reset keeps the time: ids and dates already handed out stay in the past. */
  reset(): void {}

  /** Only for a fresh start (no saved state): begin at the given instant. */
  startAt(ms: number): void {
    this.offsetMs = ms - this.realNow()
  }
}
