import type { Persistable } from "../state"
import { TIMINGS } from "./context"
import { newId } from "./ids"

/**
 * Webhook endpoints of a merchant (spec 2.3 and 4). The secret is shown only by the create
 * and rotate-secret answers; after a rotation the previous secret keeps signing, as a
 * second `v1`, for 24 hours on the sandbox clock. A second rotation within those 24 hours
 * drops the oldest secret: at most two `v1` parts.
 */

export const EVENT_TYPES = [
  "payment_intent.created",
  "payment_intent.requires_action",
  "payment_intent.succeeded",
  "payment_intent.failed",
  "payment_intent.canceled",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** Sandbox choice: endpoints per merchant. */
export const MAX_ENDPOINTS = 16

export interface WebhookEndpointRecord {
  id: string
  merchantId: string
  url: string
  enabledEvents: EventType[]
  status: "enabled" | "disabled"
  createdAt: number
  seq: number
  secret: string
  previousSecret: { secret: string; expiresAt: number } | null
}

export class WebhookEndpoints implements Persistable {
  readonly name = "embedded.webhookEndpoints"
  private endpoints = new Map<string, WebhookEndpointRecord>()
  private seq = 0

  constructor(private readonly nowMs: () => number) {}

  create(merchantId: string, input: { url: string; enabledEvents: EventType[] }): WebhookEndpointRecord {
    const endpoint: WebhookEndpointRecord = {
      id: newId.webhookEndpoint(),
      merchantId,
      url: input.url,
      enabledEvents: input.enabledEvents,
      status: "enabled",
      createdAt: this.nowMs(),
      seq: ++this.seq,
      secret: newId.webhookSecret(),
      previousSecret: null,
    }
    this.endpoints.set(endpoint.id, endpoint)
    return endpoint
  }

  of(merchantId: string, id: string): WebhookEndpointRecord | undefined {
    const endpoint = this.endpoints.get(id)
    return endpoint?.merchantId === merchantId ? endpoint : undefined
  }

  get(id: string): WebhookEndpointRecord | undefined {
    return this.endpoints.get(id)
  }

  /** Newest first. */
  list(merchantId?: string): WebhookEndpointRecord[] {
    return [...this.endpoints.values()].filter((e) => merchantId === undefined || e.merchantId === merchantId).sort((a, b) => b.seq - a.seq)
  }

  delete(id: string): void {
    this.endpoints.delete(id)
  }

  rotate(endpoint: WebhookEndpointRecord): { secret: string; previousSecretExpiresAt: number } {
    const expiresAt = this.nowMs() + TIMINGS.previousSecretMs
    endpoint.previousSecret = { secret: endpoint.secret, expiresAt }
    endpoint.secret = newId.webhookSecret()
    return { secret: endpoint.secret, previousSecretExpiresAt: expiresAt }
  }

  /** The secrets that sign a delivery now: current first, then the rotated-out one while it lasts. */
  signingSecrets(endpoint: WebhookEndpointRecord): string[] {
    const previous = endpoint.previousSecret
    return previous && previous.expiresAt > this.nowMs() ? [endpoint.secret, previous.secret] : [endpoint.secret]
  }

  dump(): unknown {
    return { seq: this.seq, endpoints: [...this.endpoints.values()] }
  }

  load(data: unknown): void {
    const saved = data as { seq?: number; endpoints?: WebhookEndpointRecord[] }
    this.seq = saved.seq ?? 0
    this.endpoints = new Map((saved.endpoints ?? []).map((e) => [e.id, e]))
  }

  reset(): void {
    this.endpoints = new Map()
  }
}
