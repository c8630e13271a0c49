import { isUint8Array } from "node:util/types"
import { describeIssues } from "../http/validate"
import { webhookEvent, WEBHOOK_EVENT_TYPES, type WebhookEvent } from "./schemas/event"
import { InvalidWebhookEventError } from "./webhook-errors"

const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES)

/**
 * Parses a webhook body into a typed event (spec 6). Does not verify anything:
 * use `constructEvent` on untrusted input. Errors name fields, never values.
 */
export function parseEvent(rawBody: Buffer | Uint8Array | string): WebhookEvent {
  let body: unknown
  try {
    body = JSON.parse(typeof rawBody === "string" ? rawBody : toBuffer(rawBody).toString("utf8"))
  } catch {
    // JSON.parse's own message quotes the body; ours does not.
    throw new InvalidWebhookEventError("MALFORMED_EVENT", "Webhook body is not valid JSON")
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidWebhookEventError("MALFORMED_EVENT", "Webhook body is not a JSON object")
  }
  const type = (body as { type?: unknown }).type
  if (typeof type === "string" && type !== "" && !KNOWN_TYPES.has(type)) {
    throw new InvalidWebhookEventError("UNKNOWN_EVENT_TYPE", "Webhook event type is not one this client knows")
  }
  const result = webhookEvent.safeParse(body)
  if (!result.success) {
    throw new InvalidWebhookEventError("MALFORMED_EVENT", `Malformed webhook event: ${describeIssues(result.error.issues)}`)
  }
  return result.data
}

function toBuffer(bytes: Buffer | Uint8Array): Buffer {
  if (Buffer.isBuffer(bytes)) {
    return bytes
  }
  if (!isUint8Array(bytes)) {
    throw new TypeError("Webhook body must be a Buffer, Uint8Array or string")
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
