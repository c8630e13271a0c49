import { z } from "zod"
import { type ConnectionOptions, Requester, validateRequest } from "../http"
import { embeddedProtocol } from "./embedded-protocol"
import { PaymentIntentsResource } from "./resources/payment-intents"
import { RefundsResource } from "./resources/embedded-refunds"
import { WebhookEndpointsResource } from "./resources/webhook-endpoints"
import { httpUrl } from "./schemas/embedded-fields"

export interface EmbeddedCardClientOptions extends ConnectionOptions {
  /** `sk_` + 32 characters (spec 5). A publishable key would only get 401s. */
  secretKey: string
  /** The API base, without `/v1` (paths carry it). */
  baseUrl: string
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
 * and rejects with a typed error of `../http/http-errors`.
 */
export class EmbeddedCardClient {
  readonly paymentIntents: PaymentIntentsResource
  readonly refunds: RefundsResource
  readonly webhookEndpoints: WebhookEndpointsResource
  readonly #requester: Requester

  constructor(options: EmbeddedCardClientOptions) {
    validateRequest(clientOptions, options, "embedded-card client options")
    this.#requester = new Requester(embeddedProtocol, { baseUrl: options.baseUrl, credential: options.secretKey }, options)
    this.paymentIntents = new PaymentIntentsResource(this.#requester)
    this.refunds = new RefundsResource(this.#requester)
    this.webhookEndpoints = new WebhookEndpointsResource(this.#requester)
  }

  /** Closes the connection pool (not an injected dispatcher, which its owner closes). */
  async close(): Promise<void> {
    await this.#requester.close()
  }
}
