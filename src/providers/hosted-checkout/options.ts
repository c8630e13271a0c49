import { z } from "zod"
import { absoluteUrl, deliveriesSchema, parseOptions, reconciliationSchema, timeoutsSchema } from "../core/options"

export const PAYMENT_METHODS = ["card", "cvs", "atm", "linePay"] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

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
  timeouts: timeoutsSchema,
  reconciliation: reconciliationSchema,
  /** Delay and attempts of the plugin's intake of notifications/webhooks (see core/options.ts). */
  deliveries: deliveriesSchema,
})

export type HostedCheckoutOptions = z.input<typeof hostedCheckoutOptionsSchema>
export type ResolvedHostedCheckoutOptions = z.output<typeof hostedCheckoutOptionsSchema>

export function parseHostedCheckoutOptions(options: unknown): ResolvedHostedCheckoutOptions {
  return parseOptions(hostedCheckoutOptionsSchema, options, "hosted-checkout")
}
