import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"
import { describeIssues } from "../../lib/http/validate"
import { codeForIssues, SHOPPER_ERROR, type ShopperErrorCode } from "./shopper-error-codes"

/**
 * Parses session or payment data with a provider's schema; a mismatch is a
 * clear INVALID_DATA error naming the fields (never their values), with the
 * shopper code given (by default the one its issues tell, `codeForIssues`).
 */
export function parseSessionData<S extends z.ZodType>(schema: S, data: unknown, what: string, code?: ShopperErrorCode): z.output<S> {
  const result = schema.safeParse(data ?? {})
  if (!result.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `${what} (${describeIssues(result.error.issues)})`, code ?? codeForIssues(result.error.issues))
  }
  return result.data
}

/**
 * The two halves of a provider's session data: what a storefront may send (a
 * strict whitelist) and the keys the provider writes itself. Medusa hands a
 * session's data back to `initiatePayment` when it recreates the session (a
 * compensation), so written keys are accepted there and dropped. It also
 * stores the data it was given merged with the provider's answer, so a new
 * payment's data (`fresh`) clears every written key: nothing of an earlier
 * payment carries over.
 */
/** For a provider's stored fields: data without them is no payment of the provider's. */
export const parseStoredSessionData = <S extends z.ZodType>(schema: S, data: unknown, what: string): z.output<S> =>
  parseSessionData(schema, data, what, SHOPPER_ERROR.payment_session_invalid)

export function sessionDataShape<S extends z.ZodType, K extends string>(storefront: S, writtenKeys: readonly K[]) {
  return {
    parseStorefront(data: unknown): z.output<S> {
      const input = typeof data === "object" && data !== null && !Array.isArray(data)
        ? Object.fromEntries(Object.entries(data).filter(([key]) => !(writtenKeys as readonly string[]).includes(key)))
        : data
      return parseSessionData(storefront, input, "Invalid payment session data")
    },
    fresh: Object.freeze(Object.fromEntries(writtenKeys.map((key) => [key, undefined]))) as Readonly<Record<K, undefined>>,
  }
}
