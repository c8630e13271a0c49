import type { SandboxCore } from "../context"
import { Outbound } from "../outbound"
import type { Persistable } from "../state"
import { JOBS, TIMINGS } from "./context"
import type { EventRecord } from "./events"
import { newId } from "./ids"
import { signatureHeader } from "./signature"
import type { WebhookEndpoints } from "./webhooks"

/**
 * Signed webhook delivery (spec 6 and 8). Each attempt is a scheduler job on the sandbox
 * clock, never inside the API call that caused the event:
 * - POST of the event's raw body with `Content-Type: application/json`, `Svc-Signature`,
 *   `Svc-Event-Type`, `Svc-Event-Id` (the same on every attempt) and, on retries,
 *   `Svc-Retry-Count` (1 to 5);
 * - an answer must come within the time-out (30 s, the `webhookTimeoutMs` start option);
 *   a time-out, a connection error or any status outside 200-299 fails the attempt;
 * - at most 5 retries, each about 1 min, 5 min, 30 min, 2 h and 24 h after the attempt
 *   before it, each delay varied at random by up to +-20 %;
 * - `t` in the signature is the real time of sending (receivers check it against their own
 *   clock with a 300 s tolerance, which a moved sandbox clock would otherwise defeat);
 * - retries go to the endpoint's current URL and secrets; a deleted or disabled endpoint
 *   gets no more attempts (the delivery is `abandoned`);
 * - the log of attempts is kept 30 days (sandbox clock).
 */

export const RETRY_DELAYS_SEC = [60, 300, 1800, 7200, 86400]
export const RETRY_JITTER = 0.2
const MAX_ATTEMPTS = RETRY_DELAYS_SEC.length + 1

export interface DeliveryAttemptRecord {
  id: string
  /** 1 for the first delivery, 2 to 6 for retries. */
  attempt: number
  /** Sandbox ms the attempt was due and ran at. */
  attemptedAt: number
  url: string
  requestHeaders: Record<string, string>
  responseStatus: number | null
  responseBody?: string
  error?: string
  timedOut: boolean
  durationMs: number
}

export type DeliveryState = "pending" | "delivered" | "failed" | "abandoned"

export interface DeliveryRecord {
  id: string
  eventId: string
  eventType: string
  merchantId: string
  endpointId: string
  payload: string
  createdAt: number
  state: DeliveryState
  /** Sandbox ms of the next attempt while pending. */
  nextAttemptAt: number | null
  abandonedReason?: string
  attempts: DeliveryAttemptRecord[]
}

export class WebhookDeliveries implements Persistable {
  readonly name = "embedded.deliveries"
  private deliveries = new Map<string, DeliveryRecord>()
  private readonly outbound = new Outbound()

  constructor(
    private readonly core: SandboxCore,
    private readonly webhooks: WebhookEndpoints,
    private readonly timeoutMs: number
  ) {
    core.scheduler.register(JOBS.webhookAttempt, (payload, job) => this.attempt(payload.deliveryId as string, payload.attempt as number, job.at))
  }

  enqueue(event: EventRecord, endpointId: string): string {
    const now = this.core.clock.nowMs()
    const delivery: DeliveryRecord = {
      id: newId.delivery(),
      eventId: event.id,
      eventType: event.type,
      merchantId: event.merchantId,
      endpointId,
      payload: event.payload,
      createdAt: now,
      state: "pending",
      nextAttemptAt: now,
      attempts: [],
    }
    this.deliveries.set(delivery.id, delivery)
    this.core.scheduler.schedule(JOBS.webhookAttempt, now, { deliveryId: delivery.id, attempt: 1 })
    return delivery.id
  }

  /** Newest first, pruned to 30 days. */
  list(filter: { merchantId?: string; endpointId?: string; eventId?: string; eventType?: string } = {}): DeliveryRecord[] {
    this.prune()
    return [...this.deliveries.values()]
      .filter(
        (d) =>
          (!filter.merchantId || d.merchantId === filter.merchantId) &&
          (!filter.endpointId || d.endpointId === filter.endpointId) &&
          (!filter.eventId || d.eventId === filter.eventId) &&
          (!filter.eventType || d.eventType === filter.eventType)
      )
      .reverse()
  }

  /** Every attempt made for an endpoint, newest first (the `/v1/webhooks/{id}/logs` source). */
  attemptsOf(endpointId: string): { delivery: DeliveryRecord; attempt: DeliveryAttemptRecord }[] {
    return this.list({ endpointId })
      .flatMap((delivery) => delivery.attempts.map((attempt) => ({ delivery, attempt })))
      .sort((a, b) => b.attempt.attemptedAt - a.attempt.attemptedAt || b.attempt.attempt - a.attempt.attempt)
  }

  private async attempt(deliveryId: string, number: number, dueAt: number): Promise<void> {
    const delivery = this.deliveries.get(deliveryId)
    if (!delivery || delivery.state !== "pending") {
      return
    }
    const endpoint = this.webhooks.get(delivery.endpointId)
    if (!endpoint || endpoint.status !== "enabled") {
      delivery.state = "abandoned"
      delivery.nextAttemptAt = null
      delivery.abandonedReason = endpoint ? "endpoint disabled" : "endpoint deleted"
      return
    }
    const timestamp = Math.floor(Date.now() / 1000)
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "TwPay-Webhooks/1.0 (sandbox)",
      "svc-event-type": delivery.eventType,
      "svc-event-id": delivery.eventId,
      "svc-signature": signatureHeader(this.webhooks.signingSecrets(endpoint), timestamp, delivery.payload),
      ...(number > 1 ? { "svc-retry-count": String(number - 1) } : {}),
    }
    const record: DeliveryAttemptRecord = {
      id: newId.deliveryAttempt(),
      attempt: number,
      attemptedAt: dueAt,
      url: endpoint.url,
      requestHeaders: headers,
      responseStatus: null,
      timedOut: false,
      durationMs: 0,
    }
    const outcome = await this.outbound.post(endpoint.url, headers, delivery.payload, this.timeoutMs)
    record.responseStatus = outcome.status ?? null
    record.responseBody = outcome.body
    record.timedOut = outcome.timedOut
    record.error = outcome.timedOut ? `timeout: ${outcome.error}` : outcome.error
    record.durationMs = outcome.durationMs
    if (record.responseStatus !== null && (record.responseStatus < 200 || record.responseStatus > 299) && !record.error) {
      record.error = `HTTP ${record.responseStatus}`
    }
    delivery.attempts.push(record)
    if (record.responseStatus !== null && !record.error) {
      delivery.state = "delivered"
      delivery.nextAttemptAt = null
    } else if (number < MAX_ATTEMPTS) {
      const base = RETRY_DELAYS_SEC[number - 1] * 1000
      const at = dueAt + Math.round(base * (1 + (Math.random() * 2 - 1) * RETRY_JITTER))
      delivery.nextAttemptAt = at
      this.core.scheduler.schedule(JOBS.webhookAttempt, at, { deliveryId, attempt: number + 1 })
    } else {
      delivery.state = "failed"
      delivery.nextAttemptAt = null
    }
  }

  private prune(): void {
    const since = this.core.clock.nowMs() - TIMINGS.deliveryLogMs
    for (const [id, delivery] of this.deliveries) {
      delivery.attempts = delivery.attempts.filter((a) => a.attemptedAt >= since)
      if (delivery.state !== "pending" && delivery.attempts.length === 0 && delivery.createdAt < since) {
        this.deliveries.delete(id)
      }
    }
  }

  /** Abandons attempts in progress (shutdown). */
  async close(): Promise<void> {
    await this.outbound.close()
  }

  dump(): unknown {
    this.prune()
    return [...this.deliveries.values()]
  }

  load(data: unknown): void {
    this.deliveries = new Map((data as DeliveryRecord[]).map((d) => [d.id, d]))
  }

  reset(): void {
    this.deliveries = new Map()
  }
}
