import type { Dispatcher } from "undici"
import { z } from "zod"
import { HttpTransport, type Logger, type RetryOptions, type TimeoutOptions } from "../http"
import { validateRequest } from "../http/validate"
import { Requester } from "./requester"
import { PaymentIntentsResource } from "./resources/payment-intents"
import { RefundsResource } from "./resources/refunds"
import { WebhookEndpointsResource } from "./resources/webhook-endpoints"
import { httpUrl } from "./schemas/fields"

export interface EmbeddedCardClientOptions {
  /** `sk_` + 32 characters (spec 5). A publishable key would only get 401s. */
  secretKey: string
  /** The API base, without `/v1` (paths carry it). */
  baseUrl: string
  timeouts?: TimeoutOptions
  retry?: RetryOptions
  /** Injected dispatcher (tests, sandbox); otherwise a keep-alive pool of its own. */
  dispatcher?: Dispatcher
  logger?: Logger
  /** Injected for tests so back-off does not really wait. */
  sleep?: (ms: number) => Promise<void>
}

const clientOptions = z.looseObject({
  secretKey: z.string().regex(/^sk_\S{32}$/, "Must be a secret key: sk_ followed by 32 characters"),
  baseUrl: httpUrl,
})

/**
 * Typed client of the embedded-card backend API, one method per endpoint:
 *
 *     const client = new EmbeddedCardClient({ secretKey, baseUrl })
 *     const intent = await client.paymentIntents.create({ amount, orderId, returnUrl }, { idempotencyKey })
 *     intent.clientSecret; intent.lastResponse.requestId
 *
 * Every method resolves to the resource with a non-enumerable `lastResponse`
 * and rejects with a typed error of `../http/errors`.
 */
export class EmbeddedCardClient {
  readonly paymentIntents: PaymentIntentsResource
  readonly refunds: RefundsResource
  readonly webhookEndpoints: WebhookEndpointsResource
  // Holds the secret key (privately); nothing else in the client does.
  readonly #transport: HttpTransport

  constructor(options: EmbeddedCardClientOptions) {
    validateRequest(clientOptions, options, "embedded-card client options")
    this.#transport = new HttpTransport({
      baseUrl: options.baseUrl,
      credential: options.secretKey,
      timeouts: options.timeouts,
      retry: options.retry,
      dispatcher: options.dispatcher,
      logger: options.logger,
      sleep: options.sleep,
      userAgent: "medusa-payment-tw (embedded-card)",
    })
    const requester = new Requester(this.#transport)
    this.paymentIntents = new PaymentIntentsResource(requester)
    this.refunds = new RefundsResource(requester)
    this.webhookEndpoints = new WebhookEndpointsResource(requester)
  }

  /** Closes the connection pool (not an injected dispatcher, which its owner closes). */
  async close(): Promise<void> {
    await this.#transport.close()
  }
}
