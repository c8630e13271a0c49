import { type ApiResult, type Requester, validateRequest } from "../../http"
import { deletedResource, listPage, type DeletedResource, type ListPage } from "../schemas/embedded-envelope"
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
import { idParams } from "./id-params"

const endpointPage = listPage(webhookEndpoint)
const logPage = listPage(webhookDeliveryLog)

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
    return this.#requester.request({ method: "POST", path: "/v1/webhooks", body, data: createdWebhookEndpoint })
  }

  async list(): Promise<ApiResult<ListPage<WebhookEndpoint>>> {
    return this.#requester.request({ method: "GET", path: "/v1/webhooks", data: endpointPage })
  }

  async retrieve(id: string): Promise<ApiResult<WebhookEndpoint>> {
    return this.#requester.request({ method: "GET", path: "/v1/webhooks/{id}", params: idParams(id), data: webhookEndpoint })
  }

  async update(id: string, update: UpdateWebhookEndpointParams): Promise<ApiResult<WebhookEndpoint>> {
    const params = idParams(id)
    const body = validateRequest(updateWebhookEndpointParams, update, "webhook endpoint update")
    return this.#requester.request({ method: "PATCH", path: "/v1/webhooks/{id}", params, body, data: webhookEndpoint })
  }

  async del(id: string): Promise<ApiResult<DeletedResource>> {
    return this.#requester.request({ method: "DELETE", path: "/v1/webhooks/{id}", params: idParams(id), data: deletedResource })
  }

  /** Delivery attempts of the last 30 days. */
  async listLogs(id: string): Promise<ApiResult<ListPage<WebhookDeliveryLog>>> {
    return this.#requester.request({ method: "GET", path: "/v1/webhooks/{id}/logs", params: idParams(id), data: logPage })
  }

  /**
   * New `secret` in the result; the old one stays valid (and keeps signing as a
   * second `v1`) until `previousSecretExpiresAt`. Verify with both meanwhile.
   */
  async rotateSecret(id: string): Promise<ApiResult<RotatedWebhookEndpoint>> {
    const path = "/v1/webhooks/{id}/rotate-secret"
    return this.#requester.request({ method: "POST", path, params: idParams(id), data: rotatedWebhookEndpoint })
  }
}
