import type { EmbeddedContext } from "../context"
import { parseWebUrl } from "../domains"
import { ApiError, invalid } from "../envelope"
import { page, parseBody, onlyFields, requiredString } from "../validation"
import { endpointView } from "../views"
import { EVENT_TYPES, type EventType, MAX_ENDPOINTS, type WebhookEndpointRecord } from "../webhooks"
import type { EmbeddedCall, HandlerResult } from "./call"

/**
 * Webhook endpoint management (spec 4; bodies are the sandbox's choice): create
 * `{ url, enabledEvents? }` (omitted: all 8 types), update `{ url?, enabledEvents?, status? }`,
 * DELETE -> `{ id, deleted: true }`, rotate-secret -> endpoint + `secret` +
 * `previousSecretExpiresAt`, logs -> one item per delivery attempt, newest first.
 */

function find(ctx: EmbeddedContext, call: EmbeddedCall): WebhookEndpointRecord {
  const endpoint = ctx.webhooks.of(call.merchantId, call.params.id)
  if (!endpoint) {
    throw new ApiError(404, "WEBHOOK_ENDPOINT_NOT_FOUND", `No webhook endpoint ${call.params.id}`, "id")
  }
  return endpoint
}

function enabledEventsField(value: unknown): EventType[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid("enabledEvents", "enabledEvents must be a non-empty array of event types")
  }
  for (const item of value) {
    if (!EVENT_TYPES.includes(item as EventType)) {
      throw invalid("enabledEvents", `unknown event type ${JSON.stringify(item)}; known: ${EVENT_TYPES.join(", ")}`)
    }
  }
  return [...new Set(value as EventType[])]
}

export function createWebhook(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const body = parseBody(call.rawBody)
  onlyFields(body, ["url", "enabledEvents"])
  const url = requiredString(body.url, "url")
  parseWebUrl(url, "url")
  const enabledEvents = body.enabledEvents === undefined ? [...EVENT_TYPES] : enabledEventsField(body.enabledEvents)
  if (ctx.webhooks.list(call.merchantId).length >= MAX_ENDPOINTS) {
    throw invalid(null, `A merchant can have at most ${MAX_ENDPOINTS} webhook endpoints`)
  }
  const endpoint = ctx.webhooks.create(call.merchantId, { url, enabledEvents })
  return { data: { ...endpointView(endpoint), secret: endpoint.secret } }
}

export function listWebhooks(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const result = page(ctx.webhooks.list(call.merchantId), call.query)
  return { data: { items: result.items.map(endpointView), hasMore: result.hasMore } }
}

export function getWebhook(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  return { data: endpointView(find(ctx, call)) }
}

export function updateWebhook(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const endpoint = find(ctx, call)
  const body = parseBody(call.rawBody)
  onlyFields(body, ["url", "enabledEvents", "status"])
  const url = body.url === undefined ? undefined : requiredString(body.url, "url")
  if (url !== undefined) {
    parseWebUrl(url, "url")
  }
  const enabledEvents = body.enabledEvents === undefined ? undefined : enabledEventsField(body.enabledEvents)
  if (body.status !== undefined && body.status !== "enabled" && body.status !== "disabled") {
    throw invalid("status", "status must be enabled or disabled")
  }
  endpoint.url = url ?? endpoint.url
  endpoint.enabledEvents = enabledEvents ?? endpoint.enabledEvents
  endpoint.status = (body.status as WebhookEndpointRecord["status"] | undefined) ?? endpoint.status
  return { data: endpointView(endpoint) }
}

export function deleteWebhook(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const endpoint = find(ctx, call)
  ctx.webhooks.delete(endpoint.id)
  return { data: { id: endpoint.id, deleted: true } }
}

export function rotateWebhookSecret(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const endpoint = find(ctx, call)
  onlyFields(parseBody(call.rawBody), [])
  const rotated = ctx.webhooks.rotate(endpoint)
  return {
    data: { ...endpointView(endpoint), secret: rotated.secret, previousSecretExpiresAt: Math.floor(rotated.previousSecretExpiresAt / 1000) },
  }
}

export function webhookLogs(ctx: EmbeddedContext, call: EmbeddedCall): HandlerResult {
  const endpoint = find(ctx, call)
  const items = ctx.deliveries.attemptsOf(endpoint.id).map(({ delivery, attempt }) => ({
    id: attempt.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    attempt: attempt.attempt,
    responseStatus: attempt.responseStatus,
    ...(attempt.error ? { error: attempt.error } : {}),
    deliveredAt: Math.floor(attempt.attemptedAt / 1000),
  }))
  const result = page(items, call.query)
  return { data: { items: result.items, hasMore: result.hasMore } }
}
