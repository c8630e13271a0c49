import { parseEvent } from "./events"
import type { WebhookEvent } from "./schemas/event"
import { verifySignature, type VerifyOptions } from "./signature"

/*
 * Everything a webhook receiver needs, also importable as one namespace:
 * `webhooks.constructEvent(rawBody, readWebhookHeaders(headers).signature, secrets)`.
 */

export { parseEvent } from "./events"
export { DEFAULT_TOLERANCE_SEC, signPayload, verifySignature } from "./signature"
export type { SignOptions, VerifiedSignature, VerifyOptions } from "./signature"

/** Header names as the service sends them (spec 6). */
export const SIGNATURE_HEADER = "Svc-Signature"
export const EVENT_TYPE_HEADER = "Svc-Event-Type"
/** Unchanged across retries of one event; the body's `id` is the one to deduplicate on. */
export const EVENT_ID_HEADER = "Svc-Event-Id"
/** Only on retries. */
export const RETRY_COUNT_HEADER = "Svc-Retry-Count"

export type IncomingHeaders = Record<string, string | string[] | undefined>

export interface WebhookHeaders {
  signature?: string
  eventType?: string
  eventId?: string
  /** 0 on a first delivery (the header is absent then). */
  retryCount: number
}

/** Reads the webhook headers from Node-style headers, whatever the case of the names. */
export function readWebhookHeaders(headers: IncomingHeaders): WebhookHeaders {
  const lower: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === "string") {
      lower[name.toLowerCase()] = value
    }
  }
  const retryCount = Number(lower[RETRY_COUNT_HEADER.toLowerCase()] ?? 0)
  return {
    signature: lower[SIGNATURE_HEADER.toLowerCase()],
    eventType: lower[EVENT_TYPE_HEADER.toLowerCase()],
    eventId: lower[EVENT_ID_HEADER.toLowerCase()],
    retryCount: Number.isSafeInteger(retryCount) && retryCount >= 0 ? retryCount : 0,
  }
}

/** Verifies the signature over the raw bytes, then parses the event. */
export function constructEvent(
  rawBody: Buffer | Uint8Array,
  signatureHeader: string | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {}
): WebhookEvent {
  verifySignature(rawBody, signatureHeader, secrets, options)
  return parseEvent(rawBody)
}
