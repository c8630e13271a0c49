import { z } from "zod"
import { type ConnectionOptions, Requester, validateRequest } from "../http"
import type { HostedMerchant } from "./merchant"
import { checkoutPage, type CheckoutPage, type CheckoutPageKind } from "./pages"
import { hostedProtocol } from "./hosted-protocol"
import { CheckoutsResource } from "./resources/checkouts"
import { RefundsResource } from "./resources/hosted-refunds"
import { SubscriptionsResource } from "./resources/hosted-subscriptions"
import { TokenChargesResource, TokenSubscriptionsResource } from "./resources/token-payments"
import { TransactionsResource } from "./resources/transactions"
import { requestSchemas } from "./schemas/rules"

export interface HostedCheckoutClientOptions extends ConnectionOptions {
  /** API token of the merchant's domain (test and production tokens differ). */
  apiToken: string
  /** The merchant's domain; filled into every body that carries it. */
  merchantId: string
  /** API base URL of the environment, may carry a path prefix. */
  baseUrl: string
  /** Origin of the merchant's hosted pages in the same environment. */
  checkoutHost: string
  /** E-invoicing is activated for the domain: `userName` and `userEmail` become required. */
  einvoice?: boolean
  /** Clock for date rules and page expiry (tests, sandbox time travel). */
  now?: () => Date
}

const absoluteHttpUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })

const optionsSchema = z.object({
  apiToken: z.string().min(1, "is required"),
  merchantId: z.string().min(1, "is required"),
  baseUrl: absoluteHttpUrl,
  checkoutHost: absoluteHttpUrl,
  einvoice: z.boolean().optional(),
})

/**
 * Typed client of the hosted-checkout API, one method per endpoint, grouped by
 * resource:
 *
 *     const client = new HostedCheckoutClient({ apiToken, merchantId, baseUrl, checkoutHost })
 *     const created = await client.checkouts.create({ amount, orderId, productDetails, successUrl, failureUrl })
 *     created.page.url; created.lastResponse.attempts
 *
 * Bodies are checked locally before sending; every method that makes a request
 * resolves to the parsed answer with a non-enumerable `lastResponse` and
 * rejects with a typed error of `../http/http-errors`.
 */
export class HostedCheckoutClient {
  readonly merchantId: string
  readonly checkouts: CheckoutsResource
  readonly tokenCharges: TokenChargesResource
  readonly tokenSubscriptions: TokenSubscriptionsResource
  readonly transactions: TransactionsResource
  readonly refunds: RefundsResource
  readonly subscriptions: SubscriptionsResource
  readonly #requester: Requester
  readonly #merchant: HostedMerchant

  constructor(options: HostedCheckoutClientOptions) {
    const checked = validateRequest(optionsSchema, options, "HostedCheckoutClient options")
    const now = options.now ?? (() => new Date())
    this.merchantId = checked.merchantId
    this.#requester = new Requester(hostedProtocol, { baseUrl: checked.baseUrl, credential: checked.apiToken }, options)
    this.#merchant = {
      merchantId: checked.merchantId,
      checkoutHost: checked.checkoutHost,
      schemas: requestSchemas({ einvoice: checked.einvoice ?? false, now }),
      now,
    }
    this.checkouts = new CheckoutsResource(this.#requester, this.#merchant)
    this.tokenCharges = new TokenChargesResource(this.#requester, this.#merchant)
    this.tokenSubscriptions = new TokenSubscriptionsResource(this.#requester, this.#merchant)
    this.transactions = new TransactionsResource(this.#requester)
    this.refunds = new RefundsResource(this.#requester, this.#merchant)
    this.subscriptions = new SubscriptionsResource(this.#requester, this.#merchant)
  }

  /** Page address and expiry for an id obtained earlier; `calledAt` is when the create call was made. */
  checkoutPage(kind: CheckoutPageKind, id: string, calledAt: Date = this.#merchant.now()): CheckoutPage {
    return checkoutPage(this.#merchant.checkoutHost, kind, id, calledAt)
  }

  /** Closes the connection pool (not an injected dispatcher, which its owner closes). */
  async close(): Promise<void> {
    await this.#requester.close()
  }
}
