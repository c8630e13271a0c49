import type { SandboxClock } from "./clock"
import type { Persistable } from "./state"

/** One piece of due work: plain data, so pending work survives a restart. */
export interface Job {
  id: number
  /** Sandbox time (ms) at which the work is due. */
  at: number
  kind: string
  payload: Record<string, unknown>
}

export type JobHandler = (payload: Record<string, unknown>, job: Job) => void | Promise<void>

/**
 * Runs due work in time order on the sandbox clock. Work is data (`kind` + payload)
 * dispatched to handlers registered by each API, never a closure, so it can be saved.
 *
 * Moving the clock walks it through every due job in turn (the clock stands at the
 * job's time while it runs), so a job scheduled by another job inside the same move
 * runs too, and timestamps come out as if time had passed normally. All runs are
 * serialised: a real-time tick, a clock move and a kick after an API call never
 * interleave.
 */
export class Scheduler implements Persistable {
  readonly name = "scheduler"
  private jobs: Job[] = []
  private seq = 0
  private readonly handlers = new Map<string, JobHandler>()
  private chain: Promise<void> = Promise.resolve()
  private kickPending = false
  private ticker: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly clock: SandboxClock,
    private readonly hooks: { onError: (job: Job, err: unknown) => void; afterRun: () => void }
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
  }

  schedule(kind: string, at: number, payload: Record<string, unknown>): Job {
    const job: Job = { id: ++this.seq, at, kind, payload }
    // Keep the list ordered by (at, id): equal times run in the order they were scheduled.
    let index = this.jobs.length
    while (index > 0 && this.jobs[index - 1].at > at) {
      index--
    }
    this.jobs.splice(index, 0, job)
    if (at <= this.clock.nowMs()) {
      this.kick()
    }
    return job
  }

  /** Drops pending jobs of a kind that match; used when their subject went away. */
  cancel(kind: string, match: (payload: Record<string, unknown>) => boolean): void {
    this.jobs = this.jobs.filter((job) => job.kind !== kind || !match(job.payload))
  }

  pending(): readonly Job[] {
    return this.jobs
  }

  /** Runs the work due now, soon but outside the caller (an API call never waits for it). */
  kick(): void {
    if (this.kickPending || this.closed) {
      return
    }
    this.kickPending = true
    setImmediate(() => {
      this.kickPending = false
      void this.runDue()
    })
  }

  runDue(): Promise<void> {
    return this.serial(() => this.walkTo(undefined))
  }

  /** Moves the clock to `target`, running everything due up to it in time order. */
  advanceTo(target: number): Promise<void> {
    return this.serial(() => this.walkTo(target))
  }

  /** Resolves once every run queued so far has finished. */
  idle(): Promise<void> {
    return this.serial(async () => {})
  }

  startTicker(intervalMs: number): void {
    if (intervalMs <= 0 || this.ticker) {
      return
    }
    this.ticker = setInterval(() => void this.runDue(), intervalMs)
    // The ticker alone must not keep a process (or a test run) alive.
    this.ticker.unref()
  }

  close(): void {
    this.closed = true
    if (this.ticker) {
      clearInterval(this.ticker)
      this.ticker = undefined
    }
  }

  private serial(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work, work)
    this.chain = next.catch(() => {})
    return next
  }

  private async walkTo(target: number | undefined): Promise<void> {
    for (;;) {
      if (this.closed) {
        return
      }
      // Without a target, "due" means due at the clock's current reading (which moves on in real time).
      const limit = target ?? this.clock.nowMs()
      const job = this.jobs[0]
      if (!job || job.at > limit) {
        break
      }
      this.jobs.shift()
      this.clock.moveTo(job.at)
      const handler = this.handlers.get(job.kind)
      try {
        if (!handler) {
          throw new Error(`no handler for job kind "${job.kind}"`)
        }
        await this.clock.pinned(job.at, () => handler(job.payload, job))
      } catch (err) {
        this.hooks.onError(job, err)
      }
      this.hooks.afterRun()
    }
    if (target !== undefined) {
      this.clock.moveTo(target)
    }
  }

  dump(): unknown {
    return { seq: this.seq, jobs: this.jobs }
  }

  load(data: unknown): void {
    const saved = data as { seq?: number; jobs?: Job[] } | undefined
    this.seq = saved?.seq ?? 0
    this.jobs = [...(saved?.jobs ?? [])].sort((a, b) => a.at - b.at || a.id - b.id)
  }

  reset(): void {
    this.jobs = []
  }
}
