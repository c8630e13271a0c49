import { callApi, type HostedContext, pathParam } from "../api-call"
import { paginate } from "../pagination"
import { orderIdSchema, transactionLookupSchema } from "../requests"
import {
  orderTransactionsSchema,
  type Transaction,
  transactionPageSchema,
  type TransactionPage,
  transactionSchema,
} from "../responses"

/** Transaction queries (spec 4.7 to 4.9): the truth to re-read after a notification or an unknown outcome. */
export class Transactions {
  readonly #ctx: HostedContext

  constructor(ctx: HostedContext) {
    this.#ctx = ctx
  }

  /**
   * `GET /transactions/{id}` by the 27-character id or the P number (the latter
   * answers without `productDetails` and `numberOfPeriods`).
   */
  async retrieve(id: string): Promise<Transaction> {
    const segment = pathParam(transactionLookupSchema, id, "transaction id")
    return callApi(this.#ctx, {
      method: "GET",
      template: "/transactions/{id}",
      path: `/transactions/${segment}`,
      data: transactionSchema,
    })
  }

  /** One page of `GET /transactions` (50 per page); pass the previous answer's `page` to continue. */
  async listPage(params: { page?: string } = {}): Promise<TransactionPage> {
    return callApi(this.#ctx, {
      method: "GET",
      template: "/transactions",
      path: "/transactions",
      query: { page: params.page },
      data: transactionPageSchema,
    })
  }

  /** Every transaction, following the page marker until it is null. */
  list(params: { page?: string } = {}): AsyncGenerator<Transaction, void, undefined> {
    return paginate(
      async (page) => {
        const result = await this.listPage({ page })
        return { items: result.transactions, page: result.page }
      },
      "GET /transactions",
      params.page
    )
  }

  /** `GET /order/{orderId}/transactions`: every attempt under one merchant order, failed ones included. */
  async listByOrder(orderId: string): Promise<Transaction[]> {
    const segment = pathParam(orderIdSchema, orderId, "orderId")
    const data = await callApi(this.#ctx, {
      method: "GET",
      template: "/order/{orderId}/transactions",
      path: `/order/${segment}/transactions`,
      data: orderTransactionsSchema,
    })
    return data.transactions
  }
}
