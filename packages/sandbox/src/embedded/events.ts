import type { Persistable } from "../state"
import { API_VERSION, TIMINGS } from "./context"
import type { WebhookDeliveries } from "./deliveries"
import { newId } from "./ids"
import type { EventType, WebhookEndpoints } from "./webhooks"

/**
 * Webhook events (spec 6): one body per event, `{ id, type, api_version, created, data }`,
 * serialised once so every endpoint and every retry gets the same bytes. An event goes to
 * each endpoint of the same merchant that is enabled and has its type enabled at the time
 * it happens. Events are kept 30 days, like the delivery log.
 */

export interface EventRecord {
  id: string
  type: EventType
  merchantId: string
  /** Sandbox ms. */
  createdAt: number
  payload: string
  deliveryIds: string[]
}

export class Events implements Persistable {
  readonly name = "embedded.events"
  private events: EventRecord[] = []

  constructor(
    private readonly nowMs: () => number,
    private readonly webhooks: WebhookEndpoints,
    private readonly deliveries: WebhookDeliveries
  ) {}

  emit(merchantId: string, type: EventType, data: object): EventRecord {
    this.prune()
    const now = this.nowMs()
    const id = newId.event()
    const payload = JSON.stringify({ id, type, api_version: API_VERSION, created: Math.floor(now / 1000), data })
    const event: EventRecord = { id, type, merchantId, createdAt: now, payload, deliveryIds: [] }
    this.events.push(event)
    for (const endpoint of this.webhooks.list(merchantId).reverse()) {
      if (endpoint.status === "enabled" && endpoint.enabledEvents.includes(type)) {
        event.deliveryIds.push(this.deliveries.enqueue(event, endpoint.id))
      }
    }
    return event
  }

  list(filter: { merchantId?: string; type?: string } = {}): EventRecord[] {
    this.prune()
    return this.events.filter((e) => (!filter.merchantId || e.merchantId === filter.merchantId) && (!filter.type || e.type === filter.type))
  }

  private prune(): void {
    const since = this.nowMs() - TIMINGS.deliveryLogMs
    this.events = this.events.filter((e) => e.createdAt >= since)
  }

  dump(): unknown {
    return this.events
  }

  load(data: unknown): void {
    this.events = (data as EventRecord[]) ?? []
  }

  reset(): void {
    this.events = []
  }
}
