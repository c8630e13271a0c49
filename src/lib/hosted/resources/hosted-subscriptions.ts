import { type ApiResult, pathParam, type Requester } from "../../http"
import { checkedBody, type HostedMerchant } from "../merchant"
import { paginate } from "../pagination"
import { subscriptionHidSchema } from "../schemas/hosted-fields"
import { type Subscription, subscriptionPageSchema, type SubscriptionPage, subscriptionSchema } from "../schemas/hosted-subscription"

/** Recurring payments by S number (spec 4.11 to 4.13). */
export class SubscriptionsResource {
  readonly #requester: Requester
  readonly #merchant: HostedMerchant

  constructor(requester: Requester, merchant: HostedMerchant) {
    this.#requester = requester
    this.#merchant = merchant
  }

  /** `GET /subscriptions/{id}`. */
  async retrieve(subscriptionHid: string): Promise<ApiResult<Subscription>> {
    const params = { id: pathParam(subscriptionHidSchema, subscriptionHid, "subscriptionHid") }
    return this.#requester.request({ method: "GET", path: "/subscriptions/{id}", params, data: subscriptionSchema })
  }

  /**
   * `PUT /subscriptions/{subscriptionHid}`: cancels for good. The service requires
   * a body, so one is always sent (at least `merchantId`).
   */
  async cancel(subscriptionHid: string, reason: { reason?: string } = {}): Promise<ApiResult<Subscription>> {
    const params = { subscriptionHid: pathParam(subscriptionHidSchema, subscriptionHid, "subscriptionHid") }
    const body = checkedBody(this.#merchant, this.#merchant.schemas.cancelSubscription, reason, "subscription cancel request")
    return this.#requester.request({ method: "PUT", path: "/subscriptions/{subscriptionHid}", params, body, data: subscriptionSchema })
  }

  /** One page of `GET /subscriptions` (50 per page). */
  async listPage(params: { page?: string } = {}): Promise<ApiResult<SubscriptionPage>> {
    return this.#requester.request({ method: "GET", path: "/subscriptions", query: { page: params.page }, data: subscriptionPageSchema })
  }

  /** Every recurring payment, following the page marker until it is null. */
  list(params: { page?: string } = {}): AsyncGenerator<Subscription, void, undefined> {
    return paginate((page) => this.listPage({ page }), "subscriptions", params.page)
  }
}
