import { type ApiResult, type Requester, validateRequest } from "../../http"
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
import { CollectionResource } from "./collection"
import { idParams } from "./id-params"

/**
 * `/v1/payment-intents` (spec 4). `create`'s result carries the `clientSecret`,
 * which the service returns only there.
 */
export class PaymentIntentsResource extends CollectionResource<
  PaymentIntent,
  CreatedPaymentIntent,
  CreatePaymentIntentParams,
  ListPaymentIntentsParams
> {
  constructor(requester: Requester) {
    super(requester, {
      path: "/v1/payment-intents",
      what: "payment intent",
      createParams: createPaymentIntentParams,
      listParams: listPaymentIntentsParams,
      item: paymentIntent,
      created: createdPaymentIntent,
    })
  }

  /** Only metadata can change; the object sent replaces the stored metadata. */
  async update(id: string, update: UpdatePaymentIntentParams): Promise<ApiResult<PaymentIntent>> {
    const body = validateRequest(updatePaymentIntentParams, update, "payment intent update")
    return this.requester.request({ method: "PATCH", path: "/v1/payment-intents/{id}", params: idParams(id), body, data: paymentIntent })
  }

  /** Not idempotent on the wire, so never retried: after an unknown outcome, retrieve first. */
  async cancel(id: string): Promise<ApiResult<PaymentIntent>> {
    const path = "/v1/payment-intents/{id}/cancel"
    return this.requester.request({ method: "POST", path, params: idParams(id), data: paymentIntent })
  }
}
