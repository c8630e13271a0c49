import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"
import { describeIssues } from "../../lib/http/validate"

/**
 * Parses session or payment data with a provider's schema; a mismatch is a
 * clear INVALID_DATA error naming the fields (never their values).
 */
export function parseSessionData<S extends z.ZodType>(schema: S, data: unknown, what: string): z.output<S> {
  const result = schema.safeParse(data ?? {})
  if (!result.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${what} (${describeIssues(result.error.issues)})`)
  }
  return result.data
}
