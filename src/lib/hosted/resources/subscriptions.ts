import { callApi, checkedBody, type HostedContext, pathParam } from "../api-call"
import { paginate } from "../pagination"
import { subscriptionHidSchema } from "../requests"
import { subscriptionPageSchema, type SubscriptionPage, type Subscription, subscriptionSchema } from "../responses"

/** Recurring payments by S number (spec 4.11 to 4.13). */
export class Subscriptions {
  readonly #ctx: HostedContext

  constructor(ctx: HostedContext) {
    this.#ctx = ctx
  }

  /** `GET /subscriptions/{id}`. */
  async retrieve(subscriptionHid: string): Promise<Subscription> {
    const segment = pathParam(subscriptionHidSchema, subscriptionHid, "subscription number")
    return callApi(this.#ctx, {
      method: "GET",
      template: "/subscriptions/{id}",
      path: `/subscriptions/${segment}`,
      data: subscriptionSchema,
    })
  }

  /**
   * `PUT /subscriptions/{subscriptionHid}`: cancels for good. The service requires
   * a body, so one is always sent (at least `merchantId`).
   */
  async cancel(subscriptionHid: string, params: { reason?: string } = {}): Promise<Subscription> {
    const segment = pathParam(subscriptionHidSchema, subscriptionHid, "subscription number")
    const body = checkedBody(this.#ctx, this.#ctx.schemas.cancelSubscription, params, "subscription cancel request")
    return callApi(this.#ctx, {
      method: "PUT",
      template: "/subscriptions/{subscriptionHid}",
      path: `/subscriptions/${segment}`,
      body,
      data: subscriptionSchema,
    })
  }

  /** One page of `GET /subscriptions` (50 per page). */
  async listPage(params: { page?: string } = {}): Promise<SubscriptionPage> {
    return callApi(this.#ctx, {
      method: "GET",
      template: "/subscriptions",
      path: "/subscriptions",
      query: { page: params.page },
      data: subscriptionPageSchema,
    })
  }

  /** Every recurring payment, following the page marker until it is null. */
  list(params: { page?: string } = {}): AsyncGenerator<Subscription, void, undefined> {
    return paginate(
      async (page) => {
        const result = await this.listPage({ page })
        return { items: result.subscriptions, page: result.page }
      },
      "GET /subscriptions",
      params.page
    )
  }
}
