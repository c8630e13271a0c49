import type { z } from "zod"
import type { ApiResult, Requester } from "../../http"
import { checkedBody, type HostedMerchant, type MerchantOptional } from "../merchant"
import {
  type TokenChargeBody,
  tokenChargeResultSchema,
  type TokenChargeResult,
  type TokenSubscriptionBody,
  tokenSubscriptionResultSchema,
  type TokenSubscriptionResult,
} from "../schemas/token-payment"

/**
 * Payments on a saved card token (spec 4.5, 4.6): no consumer, no 3-D Secure,
 * and the answer is the result. Both endpoints are sent once (no idempotency):
 * a time-out, 5xx or `C026` surfaces as `UnknownOutcomeError`, so query by order
 * before paying again. The token is redacted from every log line and error.
 */
export abstract class TokenPaymentResource {
  readonly #requester: Requester
  protected readonly merchant: HostedMerchant

  constructor(requester: Requester, merchant: HostedMerchant) {
    this.#requester = requester
    this.merchant = merchant
  }

  protected async send<S extends z.ZodType<object>>(path: string, body: { token: string }, data: S): Promise<ApiResult<z.output<S>>> {
    return this.#requester.request({ method: "POST", path, body, secrets: [body.token], data })
  }
}

/** Off-session charge with a saved card token (spec 4.5); no notification follows. */
export class TokenChargesResource extends TokenPaymentResource {
  /** `POST /token/transactions`; the result's `id` is the P transaction number. */
  async create(body: MerchantOptional<TokenChargeBody>): Promise<ApiResult<TokenChargeResult>> {
    const checked = checkedBody(this.merchant, this.merchant.schemas.tokenCharge, body, "token charge request")
    return this.send("/token/transactions", checked, tokenChargeResultSchema)
  }
}

/**
 * Recurring payment on a saved card token (spec 4.6). Without `startDate` the
 * first period is charged now and its result is the answer (no notification for
 * it); with one, only the schedule is created.
 */
export class TokenSubscriptionsResource extends TokenPaymentResource {
  /** `POST /token/subscriptions`. */
  async create(body: MerchantOptional<TokenSubscriptionBody>): Promise<ApiResult<TokenSubscriptionResult>> {
    const checked = checkedBody(this.merchant, this.merchant.schemas.tokenSubscription, body, "token subscription request")
    return this.send("/token/subscriptions", checked, tokenSubscriptionResultSchema)
  }
}
