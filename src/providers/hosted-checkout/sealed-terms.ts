import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"
import type { Attestor } from "../core/attestation"

/**
 * Terms a session is opened on that only the plugin's own code may set (a
 * subscription checkout, a renewal, an adopted payment): carried in the
 * session's context, which the storefront's session route cannot set, and
 * sealed with the provider's `Attestor` (an HMAC keyed by its credential), so
 * terms copied, altered or replayed after 10 minutes open to nothing.
 */

export type Sealed<T> = { terms: T; seal: unknown }

/** Field order fixed, so the same terms always give the same seal. */
const canonical = (terms: Record<string, unknown>) => JSON.stringify(Object.keys(terms).sort().map((key) => [key, terms[key]]))

/** The facts a kind of terms is sealed as: `id` names what they are about (a subscription, a dropped session). */
function facts(kind: string, id: string, terms: { amount: number } & Record<string, unknown>) {
  return { sessionId: `${kind}:${id}`, serviceId: canonical(terms), amount: terms.amount, status: kind }
}

/** Terms of a session the plugin's own code opens, sealed for its context. */
export function sealTerms<T extends { amount: number }>(attestor: Attestor, kind: string, id: string, terms: T): Sealed<T> {
  return { terms, seal: attestor.seal(facts(kind, id, terms)) }
}

/**
 * The sealed terms a session's context carries, or undefined when it carries
 * none (a one-time payment). Present but unsealed, altered or stale: refused
 * with `refusal`'s words.
 */
export function openSealedTerms<S extends z.ZodType<{ amount: number }>>(
  attestor: Attestor,
  value: unknown,
  schema: S,
  kind: string,
  idOf: (terms: z.output<S>) => string,
  refusal: { malformed: string; unsealed: string; code: string }
): z.output<S> | undefined {
  if (value === undefined || value === null) {
    return undefined
  }
  const sealed = value as Partial<Sealed<unknown>>
  const parsed = schema.safeParse(sealed.terms)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, refusal.malformed, refusal.code)
  }
  const terms = parsed.data as z.output<S> & Record<string, unknown>
  const { status, ...rest } = facts(kind, idOf(terms), terms)
  if (attestor.open(sealed.seal, rest) !== status) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal.unsealed, refusal.code)
  }
  return terms
}
