import { callApi, checkedBody, type HostedContext, type MerchantOptional } from "../api-call"
import type { TokenSubscriptionBody } from "../requests"
import { tokenSubscriptionResultSchema, type TokenSubscriptionResult } from "../responses"

/**
 * Recurring payment on a saved card token (spec 4.6). Without `startDate` the
 * first period is charged now and its result is the answer (no notification for
 * it); with one, only the schedule is created.
 */
export class TokenSubscriptions {
  readonly #ctx: HostedContext

  constructor(ctx: HostedContext) {
    this.#ctx = ctx
  }

  /** `POST /token/subscriptions`. */
  async create(body: MerchantOptional<TokenSubscriptionBody>): Promise<TokenSubscriptionResult> {
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.tokenSubscription, body, "token subscription request")
    const path = "/token/subscriptions"
    return callApi(this.#ctx, {
      method: "POST",
      template: path,
      path,
      body: checked,
      secrets: [checked.token],
      data: tokenSubscriptionResultSchema,
    })
  }
}
