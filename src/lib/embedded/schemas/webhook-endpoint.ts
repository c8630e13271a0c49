import { z } from "zod"
import { webhookEventType } from "./event"
import { httpUrl, unixSeconds } from "./embedded-fields"

/*
 * The spec shows no bodies for webhook management; every shape here is the
 * project's choice, and the sandbox implements the same.
 */

export const WEBHOOK_ENDPOINT_STATUSES = ["enabled", "disabled"] as const

// ---- requests ----

// Omitting `enabledEvents` subscribes the endpoint to every event type.
const enabledEvents = z.array(webhookEventType).min(1)

export const createWebhookEndpointParams = z.strictObject({
  // http is allowed for the sandbox; the production service requires https (spec 2.3).
  url: httpUrl,
  enabledEvents: enabledEvents.optional(),
})

export const updateWebhookEndpointParams = z
  .strictObject({
    url: httpUrl.optional(),
    enabledEvents: enabledEvents.optional(),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES).optional(),
  })
  .refine((params) => Object.values(params).some((value) => value !== undefined), "Nothing to update")

export type CreateWebhookEndpointParams = z.input<typeof createWebhookEndpointParams>
export type UpdateWebhookEndpointParams = z.input<typeof updateWebhookEndpointParams>

// ---- responses ----

export const webhookEndpoint = z.looseObject({
  id: z.string().min(1),
  url: z.string(),
  enabledEvents: z.array(z.string()),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  created: unixSeconds,
  /** The `whsec_` signing secret: only in the create and rotate-secret responses. */
  secret: z.string().optional(),
})

const signingSecret = z.string().startsWith("whsec_")

export const createdWebhookEndpoint = webhookEndpoint.extend({ secret: signingSecret })

/** The old secret keeps signing (as a second `v1`) until `previousSecretExpiresAt`. */
export const rotatedWebhookEndpoint = webhookEndpoint.extend({
  secret: signingSecret,
  previousSecretExpiresAt: unixSeconds,
})

export const webhookDeliveryLog = z.looseObject({
  id: z.string().min(1),
  eventId: z.string().min(1),
  eventType: z.string(),
  attempt: z.int().min(0),
  /** Null when the endpoint gave no answer (time-out, connection refused). */
  responseStatus: z.int().nullable(),
  error: z.string().optional(),
  deliveredAt: unixSeconds,
})

export type WebhookEndpoint = z.output<typeof webhookEndpoint>
export type CreatedWebhookEndpoint = z.output<typeof createdWebhookEndpoint>
export type RotatedWebhookEndpoint = z.output<typeof rotatedWebhookEndpoint>
export type WebhookDeliveryLog = z.output<typeof webhookDeliveryLog>
