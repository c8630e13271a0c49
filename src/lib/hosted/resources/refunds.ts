import { callApi, checkedBody, type HostedContext, type MerchantOptional, pathParam } from "../api-call"
import { type RefundBody, transactionHidSchema } from "../requests"
import { refundResultSchema, type RefundResult } from "../responses"

/**
 * Refunds (spec 4.10): one per transaction, by P number. A time-out or 5xx leaves
 * the outcome unknown: re-read `status` and `refundAmount` before trying again.
 */
export class Refunds {
  readonly #ctx: HostedContext

  constructor(ctx: HostedContext) {
    this.#ctx = ctx
  }

  /** `POST /refunds/{transactionHid}`; omit `amount` for a full refund. */
  async create(transactionHid: string, body: MerchantOptional<RefundBody> = {}): Promise<RefundResult> {
    const segment = pathParam(transactionHidSchema, transactionHid, "transactionHid")
    const checked = checkedBody(this.#ctx, this.#ctx.schemas.refund, body, "refund request")
    return callApi(this.#ctx, {
      method: "POST",
      template: "/refunds/{transactionHid}",
      path: `/refunds/${segment}`,
      body: checked,
      // Bank details are personal data; keep them out of messages even if the service echoes them.
      secrets: checked.remitInfo ? [checked.remitInfo.account] : undefined,
      data: refundResultSchema,
    })
  }
}
