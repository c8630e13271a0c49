import type { SandboxClock } from "./clock"
import type { FaultRegistry, NotificationFault } from "./faults"
import { Outbound } from "./outbound"
import type { Scheduler } from "./scheduler"
import type { Persistable } from "./state"

/** How one API delivers its notifications. */
export interface DeliveryPolicy {
  maxAttempts: number
  /** Sandbox seconds between attempt n and n+1 (index 0: before the second attempt). */
  retryDelaysSec: number[]
  /** Real milliseconds to wait for the receiver's answer before counting a time-out. */
  timeoutMs: number
}

export interface DeliveryAttempt {
  number: number
  /** Sandbox time of the attempt. */
  at: string
  url: string
  status?: number
  responseBody?: string
  error?: string
  timedOut: boolean
  durationMs: number
}

export type DeliveryState = "pending" | "held" | "delivered" | "failed" | "dropped" | "undeliverable"

export interface Delivery {
  id: number
  api: string
  merchantId: string
  purpose: string
  url: string | null
  body: Record<string, unknown>
  /** The exact bytes sent on every attempt. */
  payload: string
  createdAt: string
  state: DeliveryState
  attempts: DeliveryAttempt[]
  /** The notification fault that shaped this delivery, if any. */
  fault?: NotificationFault["kind"]
  duplicateOf?: number
}

const ATTEMPT_JOB = "delivery.attempt"
const RELEASE_JOB = "delivery.release"
/** A notification held back by a `reorder` fault goes out after this long if nothing overtakes it. */
const REORDER_RELEASE_SEC = 60

/**
 * Sends notifications as unsigned JSON POSTs with the API's retry policy, on the
 * sandbox clock, and keeps a record of every attempt and the receiver's answer.
 * Attempts run as scheduler jobs, so they never happen inside the API call that
 * caused them and a clock move runs retries in order.
 */
export class Deliveries implements Persistable {
  readonly name = "deliveries"
  private deliveries: Delivery[] = []
  private seq = 0
  private readonly policies = new Map<string, DeliveryPolicy>()
  private readonly outbound = new Outbound()

  constructor(
    private readonly clock: SandboxClock,
    private readonly scheduler: Scheduler,
    private readonly faults: FaultRegistry
  ) {
    scheduler.register(ATTEMPT_JOB, (payload, job) => this.attempt(payload as { id: number; number: number }, job.at))
    scheduler.register(RELEASE_JOB, (payload) => this.release(payload.id as number))
  }

  registerPolicy(api: string, policy: DeliveryPolicy): void {
    this.policies.set(api, policy)
  }

  policy(api: string): DeliveryPolicy {
    const policy = this.policies.get(api)
    if (!policy) {
      throw new Error(`no delivery policy for ${api}`)
    }
    return policy
  }

  list(filter: { merchantId?: string; purpose?: string; api?: string } = {}): Delivery[] {
    return this.deliveries.filter(
      (d) =>
        (!filter.merchantId || d.merchantId === filter.merchantId) &&
        (!filter.purpose || d.purpose === filter.purpose) &&
        (!filter.api || d.api === filter.api)
    )
  }

  enqueue(input: { api: string; merchantId: string; purpose: string; url: string | null; body: Record<string, unknown> }): void {
    const delivery = this.record(input)
    if (!delivery.url) {
      delivery.state = "undeliverable"
      return
    }
    const fault = this.faults.takeNotification(input)
    const now = this.clock.nowMs()
    if (fault) {
      delivery.fault = fault.kind
    }
    switch (fault?.kind) {
      case "drop":
        delivery.state = "dropped"
        return
      case "delay":
        this.scheduleAttempt(delivery, 1, now + fault.seconds * 1000)
        return
      case "reorder":
        delivery.state = "held"
        this.scheduler.schedule(RELEASE_JOB, now + REORDER_RELEASE_SEC * 1000, { id: delivery.id })
        return
      case "duplicate": {
        this.scheduleFirst(delivery, input.merchantId, now)
        const copy = this.record(input)
        copy.fault = "duplicate"
        copy.duplicateOf = delivery.id
        this.scheduleAttempt(copy, 1, now)
        return
      }
      default:
        this.scheduleFirst(delivery, input.merchantId, now)
    }
  }

  /** Schedules a first attempt; a notification held by `reorder` goes right after it. */
  private scheduleFirst(delivery: Delivery, merchantId: string, now: number): void {
    this.scheduleAttempt(delivery, 1, now)
    for (const held of this.deliveries) {
      if (held.state === "held" && held.merchantId === merchantId && held.api === delivery.api) {
        this.scheduler.cancel(RELEASE_JOB, (p) => p.id === held.id)
        this.scheduleAttempt(held, 1, now)
      }
    }
  }

  private release(id: number): void {
    const held = this.deliveries.find((d) => d.id === id)
    if (held?.state === "held") {
      this.scheduleAttempt(held, 1, this.clock.nowMs())
    }
  }

  private record(input: { api: string; merchantId: string; purpose: string; url: string | null; body: Record<string, unknown> }): Delivery {
    const delivery: Delivery = {
      id: ++this.seq,
      api: input.api,
      merchantId: input.merchantId,
      purpose: input.purpose,
      url: input.url,
      body: input.body,
      payload: JSON.stringify(input.body),
      createdAt: this.clock.now().toISOString(),
      state: "pending",
      attempts: [],
    }
    this.deliveries.push(delivery)
    return delivery
  }

  private scheduleAttempt(delivery: Delivery, number: number, at: number): void {
    delivery.state = "pending"
    this.scheduler.schedule(ATTEMPT_JOB, at, { id: delivery.id, number })
  }

  private async attempt(job: { id: number; number: number }, scheduledAt: number): Promise<void> {
    const delivery = this.deliveries.find((d) => d.id === job.id)
    if (!delivery || delivery.state !== "pending" || !delivery.url) {
      return
    }
    const policy = this.policy(delivery.api)
    const attempt: DeliveryAttempt = {
      number: job.number,
      at: this.clock.now().toISOString(),
      url: delivery.url,
      timedOut: false,
      durationMs: 0,
    }
    // Only the content type: the service adds no signature, id or credential.
    const outcome = await this.outbound.post(delivery.url, { "content-type": "application/json" }, delivery.payload, policy.timeoutMs)
    attempt.status = outcome.status
    attempt.responseBody = outcome.body
    attempt.error = outcome.error
    attempt.timedOut = outcome.timedOut
    attempt.durationMs = outcome.durationMs
    delivery.attempts.push(attempt)
    const ok = attempt.status !== undefined && attempt.status >= 200 && attempt.status < 300 && !attempt.timedOut
    if (ok) {
      delivery.state = "delivered"
    } else if (job.number < policy.maxAttempts) {
      const delaySec = policy.retryDelaysSec[job.number - 1] ?? policy.retryDelaysSec.at(-1) ?? 60
      this.scheduleAttempt(delivery, job.number + 1, scheduledAt + delaySec * 1000)
    } else {
      delivery.state = "failed"
    }
  }

  /** Abandons attempts in progress (shutdown). */
  async close(): Promise<void> {
    await this.outbound.close()
  }

  dump(): unknown {
    return { seq: this.seq, deliveries: this.deliveries }
  }

  load(data: unknown): void {
    const saved = data as { seq?: number; deliveries?: Delivery[] }
    this.seq = saved.seq ?? 0
    this.deliveries = saved.deliveries ?? []
  }

  reset(): void {
    this.deliveries = []
  }
}
