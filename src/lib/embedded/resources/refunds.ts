import { validateRequest } from "../../http/validate"
import type { ApiResult } from "../api-result"
import { resolveIdempotencyKey, type IdempotentRequestOptions } from "../idempotency"
import { resourcePath, type Requester } from "../requester"
import { envelope, listPage, type ListPage } from "../schemas/envelope"
import { createRefundParams, listRefundsParams, refund, type CreateRefundParams, type ListRefundsParams, type Refund } from "../schemas/refund"

const refundEnvelope = envelope(refund)
const listEnvelope = envelope(listPage(refund))

/** `/v1/refunds` (spec 2.2, 4). */
export class RefundsResource {
  readonly #requester: Requester

  constructor(requester: Requester) {
    this.#requester = requester
  }

  /** Check `status` of the result: a 200 does not mean the money went back (spec 3.2). */
  async create(params: CreateRefundParams, options: IdempotentRequestOptions = {}): Promise<ApiResult<Refund>> {
    const body = validateRequest(createRefundParams, params, "refund")
    return this.#requester.call({
      method: "POST",
      path: "/v1/refunds",
      body,
      idempotencyKey: resolveIdempotencyKey(options.idempotencyKey),
      envelope: refundEnvelope,
      what: "create refund",
    })
  }

  async list(params: ListRefundsParams = {}): Promise<ApiResult<ListPage<Refund>>> {
    const query = validateRequest(listRefundsParams, params, "refund list query")
    return this.#requester.call({ method: "GET", path: "/v1/refunds", query, envelope: listEnvelope, what: "list refunds" })
  }

  async retrieve(id: string): Promise<ApiResult<Refund>> {
    return this.#requester.call({
      method: "GET",
      path: resourcePath("refunds", id),
      envelope: refundEnvelope,
      what: "retrieve refund",
    })
  }
}
