import { validateRequest } from "../../http/validate"
import type { ApiResult } from "../api-result"
import { resolveIdempotencyKey, type IdempotentRequestOptions } from "../idempotency"
import { resourcePath, type Requester } from "../requester"
import { envelope, listPage, type ListPage } from "../schemas/envelope"
import {
  createdPaymentIntent,
  createPaymentIntentParams,
  listPaymentIntentsParams,
  paymentIntent,
  updatePaymentIntentParams,
  type CreatedPaymentIntent,
  type CreatePaymentIntentParams,
  type ListPaymentIntentsParams,
  type PaymentIntent,
  type UpdatePaymentIntentParams,
} from "../schemas/payment-intent"

const createdEnvelope = envelope(createdPaymentIntent)
const intentEnvelope = envelope(paymentIntent)
const listEnvelope = envelope(listPage(paymentIntent))

/** `/v1/payment-intents` (spec 4). */
export class PaymentIntentsResource {
  readonly #requester: Requester

  constructor(requester: Requester) {
    this.#requester = requester
  }

  /** The result carries the `clientSecret`, which the service returns only here. */
  async create(
    params: CreatePaymentIntentParams,
    options: IdempotentRequestOptions = {}
  ): Promise<ApiResult<CreatedPaymentIntent>> {
    const body = validateRequest(createPaymentIntentParams, params, "payment intent")
    return this.#requester.call({
      method: "POST",
      path: "/v1/payment-intents",
      body,
      idempotencyKey: resolveIdempotencyKey(options.idempotencyKey),
      envelope: createdEnvelope,
      what: "create payment intent",
    })
  }

  async list(params: ListPaymentIntentsParams = {}): Promise<ApiResult<ListPage<PaymentIntent>>> {
    const query = validateRequest(listPaymentIntentsParams, params, "payment intent list query")
    return this.#requester.call({
      method: "GET",
      path: "/v1/payment-intents",
      query,
      envelope: listEnvelope,
      what: "list payment intents",
    })
  }

  async retrieve(id: string): Promise<ApiResult<PaymentIntent>> {
    return this.#requester.call({
      method: "GET",
      path: resourcePath("payment-intents", id),
      envelope: intentEnvelope,
      what: "retrieve payment intent",
    })
  }

  /** Only metadata can change; the object sent replaces the stored metadata. */
  async update(id: string, params: UpdatePaymentIntentParams): Promise<ApiResult<PaymentIntent>> {
    const path = resourcePath("payment-intents", id)
    const body = validateRequest(updatePaymentIntentParams, params, "payment intent update")
    return this.#requester.call({ method: "PATCH", path, body, envelope: intentEnvelope, what: "update payment intent" })
  }

  /** Not idempotent on the wire, so never retried: after an unknown outcome, retrieve first. */
  async cancel(id: string): Promise<ApiResult<PaymentIntent>> {
    return this.#requester.call({
      method: "POST",
      path: resourcePath("payment-intents", id, "cancel"),
      envelope: intentEnvelope,
      what: "cancel payment intent",
    })
  }
}
