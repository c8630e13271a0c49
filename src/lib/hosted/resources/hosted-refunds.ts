import { type ApiResult, pathParam, type Requester } from "../../http"
import { checkedBody, type HostedMerchant, type MerchantOptional } from "../merchant"
import { transactionHidSchema } from "../schemas/hosted-fields"
import { type RefundBody, refundResultSchema, type RefundResult } from "../schemas/hosted-refund"

/**
 * Refunds (spec 4.10): one per transaction, by P number. A time-out or 5xx leaves
 * the outcome unknown: re-read `status` and `refundAmount` before trying again.
 */
export class RefundsResource {
  readonly #requester: Requester
  readonly #merchant: HostedMerchant

  constructor(requester: Requester, merchant: HostedMerchant) {
    this.#requester = requester
    this.#merchant = merchant
  }

  /** `POST /refunds/{transactionHid}`; omit `amount` for a full refund. */
  async create(transactionHid: string, body: MerchantOptional<RefundBody> = {}): Promise<ApiResult<RefundResult>> {
    const params = { transactionHid: pathParam(transactionHidSchema, transactionHid, "transactionHid") }
    const checked = checkedBody(this.#merchant, this.#merchant.schemas.refund, body, "refund request")
    return this.#requester.request({
      method: "POST",
      path: "/refunds/{transactionHid}",
      params,
      body: checked,
      // Bank details are personal data; keep them out of messages even if the service echoes them.
      secrets: checked.remitInfo ? [checked.remitInfo.account] : undefined,
      data: refundResultSchema,
    })
  }
}
