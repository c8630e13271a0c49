import { type ApiResult, pathParam, type Requester, withLastResponse } from "../../http"
import { paginate } from "../pagination"
import {
  orderIdSchema,
  orderTransactionsSchema,
  type Transaction,
  transactionLookupSchema,
  transactionPageSchema,
  type TransactionPage,
  transactionSchema,
} from "../schemas/transaction"

/** Transaction queries (spec 4.7 to 4.9): the truth to re-read after a notification or an unknown outcome. */
export class TransactionsResource {
  readonly #requester: Requester

  constructor(requester: Requester) {
    this.#requester = requester
  }

  /**
   * `GET /transactions/{id}` by the 27-character id or the P number (the latter
   * answers without `productDetails` and `numberOfPeriods`).
   */
  async retrieve(id: string): Promise<ApiResult<Transaction>> {
    const params = { id: pathParam(transactionLookupSchema, id, "id") }
    return this.#requester.request({ method: "GET", path: "/transactions/{id}", params, data: transactionSchema })
  }

  /** One page of `GET /transactions` (50 per page); pass the previous answer's `page` to continue. */
  async listPage(params: { page?: string } = {}): Promise<ApiResult<TransactionPage>> {
    return this.#requester.request({ method: "GET", path: "/transactions", query: { page: params.page }, data: transactionPageSchema })
  }

  /** Every transaction, following the page marker until it is null. */
  list(params: { page?: string } = {}): AsyncGenerator<Transaction, void, undefined> {
    return paginate((page) => this.listPage({ page }), "transactions", params.page)
  }

  /** `GET /order/{orderId}/transactions`: every attempt under one merchant order, failed ones included. */
  async listByOrder(orderId: string): Promise<ApiResult<Transaction[]>> {
    const params = { orderId: pathParam(orderIdSchema, orderId, "orderId") }
    const path = "/order/{orderId}/transactions"
    const result = await this.#requester.request({ method: "GET", path, params, data: orderTransactionsSchema })
    return withLastResponse(result.transactions, result.lastResponse)
  }
}
