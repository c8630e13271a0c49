import { z } from "zod"
import { describeIssues } from "../../lib/http/validate"

/** Option schemas both providers share. */
export const absoluteUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })

export const timeoutsSchema = z
  .strictObject({
    connectMs: z.int().positive().optional(),
    headersMs: z.int().positive().optional(),
    bodyMs: z.int().positive().optional(),
  })
  .optional()

export const reconciliationSchema = z
  .strictObject({
    /** Run the scheduled re-read of unsettled sessions. */
    enabled: z.boolean().default(true),
    /** Sessions re-read per run at most. */
    maxPerRun: z.int().min(1).max(1000).default(50),
    /** Upper bound of API reads per second during a run. */
    requestsPerSecond: z.number().positive().max(50).default(5),
  })
  .prefault({})

/**
 * How the store takes in the service's notifications and webhooks. Core's
 * webhook route waits a fixed 5 s with 3 attempts (2.21 ignores the payment
 * module's `webhook_delay` / `webhook_retries`); the plugin's intake uses these.
 */
export const deliveriesSchema = z
  .strictObject({
    /** Wait before handling a delivery, so a shopper's own checkout usually finishes first (either order is safe). */
    delayMs: z.int().min(0).max(60_000).default(5_000),
    /** Event-bus attempts (Redis) before a delivery is left to the reconciliation job. */
    attempts: z.int().min(1).max(10).default(3),
    /**
     * In worker mode `server`: deliveries the server process handles itself at once, racing the workers for
     * them (server-deliveries.ts), so a flash sale keeps every process busy. 0 leaves them all to the workers.
     */
    serverConcurrency: z.int().min(0).max(8).default(2),
  })
  .prefault({})

/** A storefront path a shopper may be sent back to: same origin, no query, no scheme-relative `//host`. */
export const storefrontPath = z
  .string()
  .max(200)
  .regex(/^\/(?!\/)[^?#\\]*$/, "must be a path on the storefront (starting with a single /, no query)")

/** Parses provider options; the error names every wrong option, never a value (they hold credentials). */
export function parseOptions<S extends z.ZodType>(schema: S, options: unknown, provider: string): z.output<S> {
  const result = schema.safeParse(options ?? {})
  if (!result.success) {
    throw new Error(`medusa-payment-tw ${provider}: invalid provider options: ${describeIssues(result.error.issues)}`)
  }
  return result.data
}
