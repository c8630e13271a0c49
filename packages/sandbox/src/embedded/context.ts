import type { SandboxCore } from "../context"
import type { CardTokens } from "./card-tokens"
import type { WebhookDeliveries } from "./deliveries"
import type { Events } from "./events"
import type { IdempotencyStore } from "./idempotency"
import type { PaymentIntents } from "./intents"
import type { EmbeddedAccounts } from "./keys"
import type { RateLimiter } from "./rate-limits"
import type { Refunds } from "./refunds"
import type { WebhookEndpoints } from "./webhooks"

/** What the embedded handlers share. */
export interface EmbeddedContext {
  core: SandboxCore
  accounts: EmbeddedAccounts
  intents: PaymentIntents
  refunds: Refunds
  tokens: CardTokens
  webhooks: WebhookEndpoints
  events: Events
  deliveries: WebhookDeliveries
  idempotency: IdempotencyStore
  limiter: RateLimiter
  options: EmbeddedOptions
}

export interface EmbeddedOptions {
  /** Real milliseconds a webhook attempt waits for the receiver (spec: 30 s). */
  webhookTimeoutMs: number
  /** Real milliseconds the 3-D Secure page waits before it times the challenge out by itself. */
  threeDsPageTimeoutMs: number
}

/** Kinds of due work the embedded API schedules. */
export const JOBS = {
  threeDsExpiry: "embedded.threeDsExpiry",
  reconcile: "embedded.reconcileProcessing",
  refundSettle: "embedded.refundSettle",
  webhookAttempt: "embedded.webhookAttempt",
} as const

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** Durations: the spec's where it has one, otherwise the sandbox's documented choice. */
export const TIMINGS = {
  /** Spec 3.1: a processing intent is looked at after 15 minutes... */
  processingStuckMs: 15 * MINUTE,
  /** ...by a reconciliation that runs every 5 minutes (at whole 5-minute marks of the sandbox clock). */
  reconcileEveryMs: 5 * MINUTE,
  /** Sandbox choice: an unanswered 3-D Secure challenge times out after 10 minutes (`3DS_TIMEOUT`). */
  threeDsExpiryMs: 10 * MINUTE,
  /** Sandbox choice: a card token can be used once, within 15 minutes. */
  cardTokenMs: 15 * MINUTE,
  /** Sandbox choice: refunds of the "pending" test card stay pending this long. */
  pendingRefundMs: MINUTE,
  /** Spec 2.2 and 8. */
  refundWindowMs: 180 * DAY,
  /** Spec 6 and 8: delivery log kept 30 days. */
  deliveryLogMs: 30 * DAY,
  /** Rotated secrets keep signing for 24 hours. */
  previousSecretMs: DAY,
} as const

/** Spec 6: the date-form version every webhook body carries. */
export const API_VERSION = "2026-01-01"
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000
export const DEFAULT_THREE_DS_PAGE_TIMEOUT_MS = 10 * MINUTE
