import type { ProviderWebhookPayload } from "@medusajs/framework/types"
import type { PaymentActions } from "@medusajs/framework/utils"
import type { Attestor } from "./attestation"

/** What one fresh read of the service says about a payment, in the terms the store acts on. */
export interface PaymentObservation {
  /** The transaction or payment intent id, as kept in session data under `idField`. */
  serviceId: string
  /** Human-readable reference for logs and errors. */
  label: string
  /** The Medusa payment session it was created for (`customId` / `metadata.session_id`). */
  sessionId: string | undefined
  /** The cart it was started for, when the service keeps it (a hosted page's `orderId`). */
  cartId?: string
  /** Whole TWD. */
  amount: number
  status: string
  /** The provider's status table, as the action the store takes. */
  action: PaymentActions
  /** The shopper's money is with the merchant. */
  paid: boolean
  /** Some or all of the money went back to the shopper (a refund at the service). */
  returned: boolean
  /** The facts worth keeping on the session and payment. */
  facts: Record<string, unknown>
  /**
   * When the money was paid, as the service tells it: the hosted transaction's paid time; for an intent,
   * which carries none, its creation (an upper bound of the wait for its order).
   */
  paidAt?: string
}

/** A session of this provider that no payment settled yet. */
export interface UnsettledSession {
  status: string
  data: Record<string, unknown>
  createdAt: Date
}

/**
 * What became of an orphan payment: refunded now, nothing to return (unpaid,
 * or refunded already), or due by remittance, which needs the shopper's bank
 * account (a paid cvs code or bank transfer): the store records it for the merchant.
 */
export type OrphanRefund =
  | { kind: "refunded" }
  | { kind: "nothing" }
  | { kind: "remittance"; transactionHid: string; amount: number; paymentMethod: string }

/** One payment of the service's own list, as the reconciliation job's sweep sees it. */
export interface ListedPayment {
  observation: PaymentObservation
  /** When the service created it, in milliseconds since the epoch. */
  createdAt: number
  /** The money is with the merchant and none of it was returned: the store owes an order or a refund for it. */
  holdsMoney: boolean
  /** It can still change at the service without the store doing anything (a page still open, a code not yet paid, an intent processing). */
  open: boolean
}

/** One page of the service's own list of payments. */
export interface ListedPage {
  payments: ListedPayment[]
  /** The position that reads this page (and everything after it) again on a later run. */
  at: string | undefined
  /** The position of the following page of this walk; undefined after the last one. */
  next: string | undefined
}

/**
 * The key of an unsigned delivery that says `serviceId` is in `status`: what
 * the body claims before the read, and what the read verified after it.
 */
export const statusKey = (serviceId: string, status: string) => `${serviceId}:${status}`

/** A delivery refused: naming nothing of this merchant or malformed, without a signature, or signed with no configured secret. */
export type DeliveryRefusal = "forged" | "unsigned" | "signature_failed"

/** What one parse of a delivery gave: the delivery, or why it was refused (neither: not the pipeline's). */
export interface DeliveryReading {
  delivery?: Delivery
  refusal?: DeliveryRefusal
}

/** A notification or webhook reduced to what the pipeline acts on. */
export interface Delivery {
  /** Identifies the delivery across retries and duplicates. */
  key: string
  /**
   * The body was signed and checked (embedded webhooks), so `key` is a fact. Otherwise `key` is a claim
   * (`statusKey`): only a fresh read's own status is ever recorded as handled.
   */
  signed?: true
  /** The transaction or payment intent to read. */
  serviceId: string
  /** A refund that changed (embedded refund events). */
  refundId?: string
  /**
   * The session a notification says it is a subscription's charge of (hosted `action: "subscription"`).
   * Untrusted: it only lets the pipeline leave a later period to the subscription workflow, which reads
   * the service itself, without reading it here (`leftToSubscription`).
   */
  subscriptionSession?: string
}

/**
 * One API of the service as the event pipeline and the provider both use it:
 * built from the provider's options, so the pipeline reads the service with
 * the provider's own credentials and tables without going through the
 * payment module's internals.
 */
export interface PaymentApi {
  /** The session data field that holds `serviceId`. */
  readonly idField: string
  /** Names the service account (API address and merchant, nothing secret), so that state kept for one account is never used with another. */
  readonly account: string
  readonly attestor: Attestor
  /**
   * Verifies (embedded) and parses a delivery, once: the delivery the pipeline acts on, or none (logged) for one
   * to ignore, with why it was refused when it was (for the health tallies; none when it was only not the pipeline's).
   */
  readDelivery(payload: ProviderWebhookPayload["payload"]): DeliveryReading
  /** One fresh read; undefined when the service does not know the id or it is not this merchant's. */
  observe(serviceId: string): Promise<PaymentObservation | undefined>
  /** Returns money paid for a session the store no longer uses, or says why it could not. */
  refundOrphan(observation: PaymentObservation, why: string): Promise<OrphanRefund>
  /** Whether the reconciliation job should read this session again: it could still change, or is paid and awaits its order. */
  reconcilable(session: UnsettledSession, now: number): boolean
  /**
   * One page of the service's own payments (hosted `GET /transactions`, embedded
   * `GET /v1/payment-intents`), starting at `position` (opaque; undefined to
   * start at `since`, or where the provider's list begins). Only payments
   * created at or after `since` (ms) matter; older ones may be returned and are
   * skipped by the caller.
   */
  listPayments(position: string | undefined, since: number, now: number): Promise<ListedPage>
  /** Whether the payment's data holds Medusa's refund `refundId`: its provider call answered. */
  hasRefund(refundId: string, paymentData: Record<string, unknown>): boolean
  /**
   * Whether the service made Medusa's refund `refundId` (of this payment), whose provider call a crash cut
   * short: the payment data with it when it did, undefined when the service shows no such refund.
   */
  refundMade(refundId: string, paymentData: Record<string, unknown>): Promise<Record<string, unknown> | undefined>
  /** Re-reads a refund and returns the payment data updated with it (embedded refunds settle later). */
  refundUpdate?(refundId: string, paymentData: Record<string, unknown>): Promise<Record<string, unknown>>
}
