import type { Requester } from "../../http"
import { createRefundParams, listRefundsParams, refund, type CreateRefundParams, type ListRefundsParams, type Refund } from "../schemas/embedded-refund"
import { CollectionResource } from "./collection"

/**
 * `/v1/refunds` (spec 2.2, 4). Check `status` of a created refund: a 200 does
 * not mean the money went back (spec 3.2).
 */
export class RefundsResource extends CollectionResource<Refund, Refund, CreateRefundParams, ListRefundsParams> {
  constructor(requester: Requester) {
    super(requester, {
      path: "/v1/refunds",
      what: "refund",
      createParams: createRefundParams,
      listParams: listRefundsParams,
      item: refund,
      created: refund,
    })
  }
}
