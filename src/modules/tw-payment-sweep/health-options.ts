import { z } from "zod"
import { describeIssues } from "../../lib/http/validate"

const positive = (what: string) => z.number({ error: `must be a number (${what})` }).positive(`must be above 0 (${what})`)

/**
 * The thresholds of the payments health rules (`health` in the plugin's options, which Medusa hands to this
 * module). Each has a default; a wrong value stops the boot with the option's name.
 */
export const healthOptionsSchema = z
  .object({
    /** How far back the rules look at orders and deliveries. */
    windowMinutes: positive("minutes").default(60),
    /** Warn when more than this share (0..1) of the latest orders was placed by the reconciliation, */
    reconciledShare: z.number({ error: "must be a number between 0 and 1" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").default(0.5),
    /** counted over the latest this many orders of the window, */
    reconciledOrders: z.number().int("must be a whole number").positive("must be above 0").default(20),
    /** once at least this many were placed. */
    minOrders: z.number().int("must be a whole number").positive("must be above 0").default(3),
    /** Warn at this many webhooks of the window refused for their signature (unsigned or not matching). */
    signatureFailures: z.number().int("must be a whole number").positive("must be above 0").default(1),
    /** Warn when a refund has waited for the service longer than this. */
    refundMinutes: positive("minutes").default(60),
    /** Warn when cvs/atm money has been due for remittance longer than this. */
    remittanceDays: positive("days").default(3),
    /** Warn when a saved-card charge's outcome has been unknown longer than this. */
    openChargeMinutes: positive("minutes").default(30),
  })
  .strict()
  // No `health` at all: every default, as for an empty object.
  .prefault({})

export type HealthOptions = z.output<typeof healthOptionsSchema>

/** The `health` options checked, defaults filled in; the error names every wrong option. */
export function healthOptions(options: unknown): HealthOptions {
  const result = healthOptionsSchema.safeParse((options as { health?: unknown } | undefined)?.health)
  if (!result.success) {
    throw new Error(`medusa-payment-tw health (module tw_payment_sweep): invalid options: ${describeIssues(result.error.issues.map((issue) => ({ ...issue, path: ["health", ...issue.path] })))}`)
  }
  return result.data
}
