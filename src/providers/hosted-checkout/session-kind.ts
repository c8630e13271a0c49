import type { InitiatePaymentInput } from "@medusajs/framework/types"
import type { Attestor } from "../core/attestation"
import { type AdoptedTerms, openAdoptedTerms } from "./sessions/adopted-session"
import { type SavedCardRequest, savedCardRequest, sessionSavedCard } from "./saved-card-charge-data"
import { parseStorefrontData, type StorefrontData } from "./hosted-checkout-session-data"
import { awaitsFirstCharge, openRenewalTerms, openSubscriptionTerms, type RenewalTerms, type SubscriptionTerms } from "./subscription-terms"

/**
 * Which of the provider's session kinds (`sessions/`) a call is about.
 * Subscriptions, renewals and adopted payments only come from the plugin's own code, as sealed
 * terms in the context (subscription-terms.ts); a saved card from the
 * session's data (the storefront's `savedCardId`, or Medusa's recipe keys:
 * `savedCardRequest`).
 */

/** The kind of a session being opened. */
export type OpeningSession =
  | { kind: "adopted"; input: StorefrontData; terms: AdoptedTerms }
  | { kind: "renewal"; input: StorefrontData; terms: RenewalTerms }
  | { kind: "saved-card"; input: StorefrontData; card: SavedCardRequest; terms: SubscriptionTerms | undefined }
  | { kind: "subscription"; input: StorefrontData; terms: SubscriptionTerms }
  | { kind: "one-time"; input: StorefrontData }

export function openingSession(attestor: Attestor, { data, context }: Pick<InitiatePaymentInput, "data" | "context">): OpeningSession {
  const sealed = context as Record<string, unknown> | undefined
  const adopted = openAdoptedTerms(attestor, sealed)
  if (adopted) {
    return { kind: "adopted", input: parseStorefrontData(data), terms: adopted }
  }
  const renewal = openRenewalTerms(attestor, sealed)
  if (renewal) {
    return { kind: "renewal", input: parseStorefrontData(data), terms: renewal }
  }
  const terms = openSubscriptionTerms(attestor, sealed)
  const input = parseStorefrontData(data)
  const card = savedCardRequest(input)
  if (card) {
    return { kind: "saved-card", input, card, terms }
  }
  return terms ? { kind: "subscription", input, terms } : { kind: "one-time", input }
}

/**
 * What a stored session waits on, which decides its authorization and
 * release: a later first charge (no transaction yet, its schedule is asked),
 * a saved card not charged yet, or else its transaction (a one-time or
 * subscription page, a renewal, a charged saved card).
 */
export type HeldSession = { kind: "first-charge-later"; hid: string } | { kind: "uncharged-saved-card"; offSession: boolean } | { kind: "transaction" }

export function heldSession(data: Record<string, unknown> | undefined): HeldSession {
  const waiting = awaitsFirstCharge(data)
  if (waiting?.hid) {
    return { kind: "first-charge-later", hid: waiting.hid }
  }
  if (sessionSavedCard(data) && !data?.transactionId) {
    return { kind: "uncharged-saved-card", offSession: data?.offSession === true }
  }
  return { kind: "transaction" }
}
