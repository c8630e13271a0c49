import { z } from "zod"
import { describeIssues } from "../../lib/http/validate"

export const PAYMENT_METHODS = ["card", "cvs", "atm", "linePay"] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

const absoluteUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
const path = z.string().regex(/^\/[^?#]*$/, "must be a path starting with / and without query or fragment")

export const hostedCheckoutOptionsSchema = z.strictObject({
  /** API token of the merchant's domain. */
  apiToken: z.string().min(1, "is required"),
  /** The merchant's domain, as the service knows it. */
  merchantId: z.string().min(1, "is required"),
  /** API base URL of the environment (test or production). */
  apiBaseUrl: absoluteUrl,
  /** Origin of the merchant's hosted checkout pages in the same environment. */
  checkoutHost: absoluteUrl,
  /** Methods the shopper may be offered; card is always offered by the service. */
  allowedMethods: z.array(z.enum(PAYMENT_METHODS)).min(1).default(["card"]),
  /** Ask for 3-D Secure on every card payment (the domain may force it anyway). */
  threeDSecure: z.boolean().default(false),
  /** The storefront the shopper returns to. */
  storefrontUrl: absoluteUrl,
  /** Where the shopper lands after paying (or after a cvs/atm code is issued). */
  successPath: path.default("/checkout/hosted/return"),
  /** Where the shopper lands after a failure; the service appends `payment_error`. */
  failurePath: path.default("/checkout/hosted/failed"),
  /** The domain issues e-invoices: name and email are sent, refunds carry `productDetails`. */
  einvoice: z.boolean().default(false),
  /** Text of the single product line sent with each checkout. */
  productDescription: z.string().min(1).max(100).default("Order"),
  timeouts: z
    .strictObject({
      connectMs: z.int().positive().optional(),
      headersMs: z.int().positive().optional(),
      bodyMs: z.int().positive().optional(),
    })
    .optional(),
  reconciliation: z
    .strictObject({
      /** Run the scheduled re-read of unsettled sessions. */
      enabled: z.boolean().default(true),
      /** Sessions re-read per run at most. */
      maxPerRun: z.int().min(1).max(1000).default(50),
      /** Upper bound of API reads per second during a run. */
      requestsPerSecond: z.number().positive().max(50).default(5),
    })
    .prefault({}),
})

export type HostedCheckoutOptions = z.input<typeof hostedCheckoutOptionsSchema>
export type ResolvedHostedCheckoutOptions = z.output<typeof hostedCheckoutOptionsSchema>

/**
 * Parses the provider options; throws one readable error naming every wrong
 * option (never their values: they include the API token).
 */
export function parseHostedCheckoutOptions(options: unknown): ResolvedHostedCheckoutOptions {
  const result = hostedCheckoutOptionsSchema.safeParse(options ?? {})
  if (!result.success) {
    throw new Error(`medusa-payment-tw hosted-checkout: invalid provider options: ${describeIssues(result.error.issues)}`)
  }
  return result.data
}
