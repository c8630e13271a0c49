import { z } from "zod"
import { parseCalendarDate } from "../../lib/hosted"
import type { Attestor } from "../core/attestation"
import { SHOPPER_ERROR } from "../core/shopper-error-codes"
import { openSealedTerms, type Sealed, sealTerms } from "./sealed-terms"

/**
 * What makes a hosted session a subscription's: sealed terms in its context,
 * then the subscription part of its data. The sessions themselves are in
 * `sessions/` (subscription-session.ts, renewal-session.ts, first-charge-later-session.ts).
 *
 * A session is a subscription's only when the plugin's own code asks for it:
 * the store route (`POST /store/carts/:id/tw-subscription`) and the renewal
 * workflow put sealed terms in the session's **context**, which the
 * storefront's session route cannot set (its body is `{ provider_id, data }`).
 * The seal is the provider's `Attestor` (an HMAC keyed by the API token), so
 * terms copied, altered or replayed after 10 minutes open to nothing and the
 * session is refused, never silently turned into a one-time payment.
 */

/** Context key of a subscription checkout's terms. */
export const SUBSCRIPTION_CONTEXT_KEY = "tw_subscription"
/** Context key of a renewal payment: a period the service already charged. */
export const RENEWAL_CONTEXT_KEY = "tw_renewal"

const dateText = z.string().refine((s) => !!parseCalendarDate(s), "must be a yyyy/MM/dd date")

export const subscriptionTermsSchema = z.strictObject({
  subscription_id: z.string().startsWith("twsub_"),
  customer_id: z.string().min(1),
  kind: z.enum(["monthly", "scheduled"]),
  interval_months: z.int().min(1).max(12),
  /** Number of charges; null: until cancelled. */
  periods: z.int().min(2).nullable(),
  /** Taipei date of the first charge (scheduled); null: at checkout. */
  start_date: dateText.nullable(),
  amount: z.int().min(1),
})
export type SubscriptionTerms = z.output<typeof subscriptionTermsSchema>

export const renewalTermsSchema = z.strictObject({
  subscription_id: z.string().startsWith("twsub_"),
  kind: z.enum(["monthly", "scheduled"]),
  /** The paying transaction of the period. */
  transaction_id: z.string().min(1),
  period: z.int().min(1),
  amount: z.int().min(1),
  /** The subscription's checkout session: the `customId` every period carries. */
  custom_id: z.string().startsWith("payses_"),
  /**
   * The read of the transaction, sealed with the terms: what the subscription workflow's
   * `GET /order/{orderId}/transactions` said just before (kept only there when of this merchant
   * and this checkout, counted only at the subscription's amount). Null for what it did not say.
   */
  transaction_hid: z.string().min(1),
  status: z.string().min(1),
  paid_at: z.string().nullable(),
  payment_method: z.string().nullable(),
  /** A card payment's last four digits. */
  payment_info: z.string().nullable(),
})
export type RenewalTerms = z.output<typeof renewalTermsSchema>

export function sealSubscriptionTerms(attestor: Attestor, terms: SubscriptionTerms): Sealed<SubscriptionTerms> {
  return sealTerms(attestor, "tw-subscription", terms.subscription_id, terms)
}

export function sealRenewalTerms(attestor: Attestor, terms: RenewalTerms): Sealed<RenewalTerms> {
  return sealTerms(attestor, "tw-renewal", terms.subscription_id, terms)
}

const SUBSCRIPTION_REFUSAL = {
  malformed: "The subscription terms of this payment session are malformed; start the subscription checkout again.",
  unsealed: "The subscription terms of this payment session are not sealed by this store (or expired); start the subscription checkout again.",
  code: SHOPPER_ERROR.subscription_checkout_expired,
}

export const openSubscriptionTerms = (attestor: Attestor, context: Record<string, unknown> | undefined) =>
  openSealedTerms(attestor, context?.[SUBSCRIPTION_CONTEXT_KEY], subscriptionTermsSchema, "tw-subscription", (terms) => terms.subscription_id, SUBSCRIPTION_REFUSAL)

export const openRenewalTerms = (attestor: Attestor, context: Record<string, unknown> | undefined) =>
  openSealedTerms(attestor, context?.[RENEWAL_CONTEXT_KEY], renewalTermsSchema, "tw-renewal", (terms) => terms.subscription_id, SUBSCRIPTION_REFUSAL)

/** What a subscription's session data says about it (public: ids and dates only). */
export interface SessionSubscription {
  id: string
  kind: "monthly" | "scheduled"
  /** The page's id: the first period's transaction, except for a later first date. */
  checkoutId: string
  /** The S number, when the create call answered it (scheduled). */
  hid?: string
  startDate: string | null
  /** Scheduled with a later first date: the card is bound, period 1 is charged on `startDate`. */
  firstChargeLater: boolean
  /** Renewal payments: the period paid. */
  period?: number
}

/** The subscription part of session or payment data, when it has one. */
export function sessionSubscription(data: Record<string, unknown> | undefined): SessionSubscription | undefined {
  const value = data?.subscription
  return typeof value === "object" && value !== null && typeof (value as SessionSubscription).id === "string" ? (value as SessionSubscription) : undefined
}

/** Waiting for a later first charge: no transaction exists yet, the subscription is read instead. */
export function awaitsFirstCharge(data: Record<string, unknown> | undefined): SessionSubscription | undefined {
  const sub = sessionSubscription(data)
  return sub?.firstChargeLater && sub.hid && data?.transactionId === sub.checkoutId ? sub : undefined
}
