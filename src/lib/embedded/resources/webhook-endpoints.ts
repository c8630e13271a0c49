import { validateRequest } from "../../http/validate"
import type { ApiResult } from "../api-result"
import { resourcePath, type Requester } from "../requester"
import { deletedResource, envelope, listPage, type DeletedResource, type ListPage } from "../schemas/envelope"
import {
  createdWebhookEndpoint,
  createWebhookEndpointParams,
  rotatedWebhookEndpoint,
  updateWebhookEndpointParams,
  webhookDeliveryLog,
  webhookEndpoint,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointParams,
  type RotatedWebhookEndpoint,
  type UpdateWebhookEndpointParams,
  type WebhookDeliveryLog,
  type WebhookEndpoint,
} from "../schemas/webhook-endpoint"

const createdEnvelope = envelope(createdWebhookEndpoint)
const endpointEnvelope = envelope(webhookEndpoint)
const rotatedEnvelope = envelope(rotatedWebhookEndpoint)
const listEnvelope = envelope(listPage(webhookEndpoint))
const logsEnvelope = envelope(listPage(webhookDeliveryLog))
const deletedEnvelope = envelope(deletedResource)

/**
 * `/v1/webhooks` (spec 4). None of these carry an idempotency key, so none is
 * retried: after an unknown outcome, list or retrieve before repeating.
 */
export class WebhookEndpointsResource {
  readonly #requester: Requester

  constructor(requester: Requester) {
    this.#requester = requester
  }

  /** The result's `secret` is shown this once: store it before anything else. */
  async create(params: CreateWebhookEndpointParams): Promise<ApiResult<CreatedWebhookEndpoint>> {
    const body = validateRequest(createWebhookEndpointParams, params, "webhook endpoint")
    return this.#requester.call({
      method: "POST",
      path: "/v1/webhooks",
      body,
      envelope: createdEnvelope,
      what: "create webhook endpoint",
    })
  }

  async list(): Promise<ApiResult<ListPage<WebhookEndpoint>>> {
    return this.#requester.call({ method: "GET", path: "/v1/webhooks", envelope: listEnvelope, what: "list webhook endpoints" })
  }

  async retrieve(id: string): Promise<ApiResult<WebhookEndpoint>> {
    return this.#requester.call({
      method: "GET",
      path: resourcePath("webhooks", id),
      envelope: endpointEnvelope,
      what: "retrieve webhook endpoint",
    })
  }

  async update(id: string, params: UpdateWebhookEndpointParams): Promise<ApiResult<WebhookEndpoint>> {
    const path = resourcePath("webhooks", id)
    const body = validateRequest(updateWebhookEndpointParams, params, "webhook endpoint update")
    return this.#requester.call({ method: "PATCH", path, body, envelope: endpointEnvelope, what: "update webhook endpoint" })
  }

  async del(id: string): Promise<ApiResult<DeletedResource>> {
    return this.#requester.call({
      method: "DELETE",
      path: resourcePath("webhooks", id),
      envelope: deletedEnvelope,
      what: "delete webhook endpoint",
    })
  }

  /** Delivery attempts of the last 30 days. */
  async listLogs(id: string): Promise<ApiResult<ListPage<WebhookDeliveryLog>>> {
    return this.#requester.call({
      method: "GET",
      path: resourcePath("webhooks", id, "logs"),
      envelope: logsEnvelope,
      what: "list webhook delivery logs",
    })
  }

  /**
   * New `secret` in the result; the old one stays valid (and keeps signing as a
   * second `v1`) until `previousSecretExpiresAt`. Verify with both meanwhile.
   */
  async rotateSecret(id: string): Promise<ApiResult<RotatedWebhookEndpoint>> {
    return this.#requester.call({
      method: "POST",
      path: resourcePath("webhooks", id, "rotate-secret"),
      envelope: rotatedEnvelope,
      what: "rotate webhook secret",
    })
  }
}
