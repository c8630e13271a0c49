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
