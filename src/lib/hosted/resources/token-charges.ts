import { callApi, checkedBody, type HostedContext, type MerchantOptional } from "../api-call"
import type { TokenChargeBody } from "../requests"
import { tokenChargeResultSchema, type TokenChargeResult } from "../responses"

/**
 * Off-session charge with a saved card token (spec 4.5): no consumer, no 3-D
 * Secure, no notification; the answer is the result. A time-out, 5xx or `C026`
 * surfaces as `UnknownOutcomeError`: query by order before charging again.
 */
export class TokenCharges {
  readonly #ctx: HostedContext

  constructor(ctx: HostedContext) {
    this.#ctx = ctx
  }

  /** `POST /token/transactions`; the result's `id` is the P transaction number. */
  async create(body: MerchantOptional<TokenChargeBody>): Promise<TokenChargeResult> {
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.tokenCharge, body, "token charge request")
    const path = "/token/transactions"
    return callApi(this.#ctx, {
      method: "POST",
      template: path,
      path,
      body: checked,
      secrets: [checked.token],
      data: tokenChargeResultSchema,
    })
  }
}
