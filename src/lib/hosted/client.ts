import type { Dispatcher } from "undici"
import { z } from "zod"
import { HttpTransport, type Logger, type RetryOptions, type TimeoutOptions } from "../http"
import { validateRequest } from "../http/validate"
import type { HostedContext } from "./api-call"
import { checkoutPage, type CheckoutPage, type CheckoutPageKind } from "./pages"
import { requestSchemas } from "./requests"
import { Checkouts } from "./resources/checkouts"
import { Refunds } from "./resources/refunds"
import { Subscriptions } from "./resources/subscriptions"
import { TokenCharges } from "./resources/token-charges"
import { TokenSubscriptions } from "./resources/token-subscriptions"
import { Transactions } from "./resources/transactions"

export interface HostedCheckoutClientOptions {
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
  timeouts?: TimeoutOptions
  /** Applies to reads only; writes are never repeated. */
  retry?: RetryOptions
  dispatcher?: Dispatcher
  logger?: Logger
  /** Clock for date rules and page expiry (tests, sandbox time travel). */
  now?: () => Date
  /** Back-off wait between read retries; injected by tests. */
  sleep?: (ms: number) => Promise<void>
  userAgent?: string
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
 * Typed client of the hosted-checkout API: one method per endpoint, grouped by
 * resource. Bodies are checked locally before sending, answers are parsed, and
 * failures arrive as the typed errors of `../http/errors`.
 */
export class HostedCheckoutClient {
  readonly merchantId: string
  readonly checkouts: Checkouts
  readonly tokenCharges: TokenCharges
  readonly tokenSubscriptions: TokenSubscriptions
  readonly transactions: Transactions
  readonly refunds: Refunds
  readonly subscriptions: Subscriptions
  // The token lives only inside the transport's private field; nothing here can print it.
  readonly #transport: HttpTransport
  readonly #checkoutHost: string
  readonly #now: () => Date

  constructor(options: HostedCheckoutClientOptions) {
    const checked = validateRequest(optionsSchema, options, "HostedCheckoutClient options")
    this.merchantId = checked.merchantId
    this.#checkoutHost = checked.checkoutHost
    this.#now = options.now ?? (() => new Date())
    this.#transport = new HttpTransport({
      baseUrl: checked.baseUrl,
      credential: checked.apiToken,
      timeouts: options.timeouts,
      retry: options.retry,
      dispatcher: options.dispatcher,
      logger: options.logger,
      sleep: options.sleep,
      userAgent: options.userAgent,
    })
    const ctx: HostedContext = {
      transport: this.#transport,
      merchantId: checked.merchantId,
      checkoutHost: checked.checkoutHost,
      schemas: requestSchemas({ einvoice: checked.einvoice ?? false, now: this.#now }),
      now: this.#now,
    }
    this.checkouts = new Checkouts(ctx)
    this.tokenCharges = new TokenCharges(ctx)
    this.tokenSubscriptions = new TokenSubscriptions(ctx)
    this.transactions = new Transactions(ctx)
    this.refunds = new Refunds(ctx)
    this.subscriptions = new Subscriptions(ctx)
  }

  /** Page address and expiry for an id obtained earlier; `calledAt` is when the create call was made. */
  checkoutPage(kind: CheckoutPageKind, id: string, calledAt: Date = this.#now()): CheckoutPage {
    return checkoutPage(this.#checkoutHost, kind, id, calledAt)
  }

  /** Closes the connection pool (a no-op for an injected dispatcher). */
  async close(): Promise<void> {
    await this.#transport.close()
  }
}
