import type { Logger, PaymentCustomerDTO } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { z } from "zod"
import { formatCalendarDate, type HostedCheckoutClient, type InvoiceInfo, type OrderLine, parseCalendarDate, type ProductDetail, taipeiDate, compareCalendarDates, type Transaction } from "../../lib/hosted"
import { NotFoundError, InvalidRequestError, UnknownOutcomeError } from "../../lib/http"
import type { Attestor } from "../core/attestation"
import { toMedusaError } from "../core/errors"
import { invoiceRequestFields } from "./invoice"
import { productDetailsFor } from "./invoice-details"
import type { ResolvedHostedCheckoutOptions } from "./options"
import { PAID } from "./status-map"

/**
 * Subscription checkouts and renewal payments of the hosted provider.
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

type Sealed<T> = { terms: T; seal: unknown }

/** Field order fixed, so the same terms always give the same seal. */
const canonical = (terms: Record<string, unknown>) => JSON.stringify(Object.keys(terms).sort().map((key) => [key, terms[key]]))

function facts(kind: string, terms: { subscription_id: string; amount: number } & Record<string, unknown>) {
  return { sessionId: `${kind}:${terms.subscription_id}`, serviceId: canonical(terms), amount: terms.amount, status: kind }
}

export function sealSubscriptionTerms(attestor: Attestor, terms: SubscriptionTerms): Sealed<SubscriptionTerms> {
  return { terms, seal: attestor.seal(facts("tw-subscription", terms)) }
}

export function sealRenewalTerms(attestor: Attestor, terms: RenewalTerms): Sealed<RenewalTerms> {
  return { terms, seal: attestor.seal(facts("tw-renewal", terms)) }
}

/**
 * The sealed terms a session's context carries, or undefined when it carries
 * none (a one-time payment). Present but unsealed, altered or stale: refused.
 */
function openSealed<S extends z.ZodType<{ subscription_id: string; amount: number }>>(
  attestor: Attestor,
  value: unknown,
  schema: S,
  kind: string
): z.output<S> | undefined {
  if (value === undefined || value === null) {
    return undefined
  }
  const sealed = value as Partial<Sealed<unknown>>
  const parsed = schema.safeParse(sealed.terms)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "The subscription terms of this payment session are malformed; start the subscription checkout again.")
  }
  const terms = parsed.data as z.output<S> & Record<string, unknown>
  const { status, ...rest } = facts(kind, terms)
  if (attestor.open(sealed.seal, rest) !== status) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The subscription terms of this payment session are not sealed by this store (or expired); start the subscription checkout again.")
  }
  return terms
}

export const openSubscriptionTerms = (attestor: Attestor, context: Record<string, unknown> | undefined) =>
  openSealed(attestor, context?.[SUBSCRIPTION_CONTEXT_KEY], subscriptionTermsSchema, "tw-subscription")

export const openRenewalTerms = (attestor: Attestor, context: Record<string, unknown> | undefined) =>
  openSealed(attestor, context?.[RENEWAL_CONTEXT_KEY], renewalTermsSchema, "tw-renewal")

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

interface Deps {
  client: HostedCheckoutClient
  options: ResolvedHostedCheckoutOptions
  logger: Logger
  productLine(amount: number): ProductDetail
}

export interface SubscriptionCheckout {
  transactionId: string
  transactionHid: string
  checkoutUrl: string
  expiresAt: string
  subscription: SessionSubscription
  /** With e-invoices on: the lines every period is invoiced on, which its refunds' allowances share out. */
  invoiceLines?: ProductDetail[]
}

/**
 * Opens the recurring page (`/checkout-subscription`, monthly) or the
 * scheduled one (`/checkout-schedule`) for the sealed terms. The session id is
 * the `orderId` and `customId`, as for one-time pages: every period the
 * service charges carries it, which is how a period leads back to its
 * subscription.
 */
export async function openSubscriptionCheckout(
  deps: Deps,
  input: {
    sessionId: string
    amount: number
    terms: SubscriptionTerms
    customer: PaymentCustomerDTO | undefined
    returnPath: string | undefined
    invoice: InvoiceInfo | undefined
    /** The cart's lines (the store route puts them in the session data, as the store middleware does for one-time pages). */
    lines?: readonly OrderLine[]
  }
): Promise<SubscriptionCheckout> {
  const { client, options } = deps
  const { terms, sessionId, amount } = input
  if (terms.amount !== amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The cart's total (${amount} TWD) is not the subscription's amount (${terms.amount} TWD); start the subscription checkout again.`)
  }
  if (input.customer?.id && input.customer.id !== terms.customer_id) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The subscription belongs to another customer.")
  }
  const storefront = options.storefrontUrl.replace(/\/+$/, "")
  const common = {
    merchantId: options.merchantId,
    amount,
    currency: "TWD" as const,
    orderId: sessionId,
    customId: sessionId,
    successUrl: `${storefront}${input.returnPath ?? options.successPath}`,
    failureUrl: `${storefront}${options.failurePath}`,
    // The service invoices every period on these lines, so they are the cart's, as a one-time page's are.
    productDetails: productDetailsFor(options, input.lines, amount, deps.productLine),
    userId: terms.customer_id,
    // Every period's invoice is issued on the shopper's choice made at the checkout.
    ...(options.einvoice ? invoiceRequestFields({ invoice: input.invoice }, input.customer) : {}),
    ...(options.threeDSecure ? { use3d: true } : {}),
    ...(terms.periods ? { numberOfPeriods: terms.periods } : {}),
  }
  const today = taipeiDate(new Date())
  const start = terms.start_date ? parseCalendarDate(terms.start_date) : undefined
  const firstChargeLater = !!start && compareCalendarDates(start, today) > 0
  const invoiced = options.einvoice ? { invoiceLines: common.productDetails } : {}
  try {
    if (terms.kind === "monthly") {
      const created = await client.checkouts.createSubscription(common)
      return {
        transactionId: created.id,
        transactionHid: created.transactionHid,
        checkoutUrl: created.page.url,
        expiresAt: new Date(created.page.expiresAt).toISOString(),
        subscription: { id: terms.subscription_id, kind: "monthly", checkoutId: created.id, startDate: formatCalendarDate(today), firstChargeLater: false },
        ...invoiced,
      }
    }
    const created = await client.checkouts.createSchedule({
      ...common,
      paymentInterval: terms.interval_months,
      startDate: firstChargeLater && start ? formatCalendarDate(start) : formatCalendarDate(today),
    })
    // Starting today, the page's id is the first period's transaction; read once for its P number.
    const first = firstChargeLater ? undefined : await client.transactions.retrieve(created.id).catch(() => undefined)
    return {
      transactionId: created.id,
      transactionHid: first?.transactionHid ?? created.subscriptionHid,
      checkoutUrl: created.page.url,
      expiresAt: new Date(created.page.expiresAt).toISOString(),
      subscription: {
        id: terms.subscription_id,
        kind: "scheduled",
        checkoutId: created.id,
        hid: created.subscriptionHid,
        startDate: firstChargeLater && start ? formatCalendarDate(start) : formatCalendarDate(today),
        firstChargeLater,
      },
      ...invoiced,
    }
  } catch (error) {
    if (error instanceof UnknownOutcomeError) {
      // No idempotency at the service: nothing is sent twice. The shopper starts again; a page
      // created meanwhile is never paid and expires.
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment service did not answer; no subscription was started. Please try again.")
    }
    throw toMedusaError("Creating the subscription checkout failed", error)
  }
}

/**
 * A renewal payment: no page, the service already charged the period. The
 * transaction is not read again: the sealed terms carry the subscription
 * workflow's read of it (this merchant, this checkout), which must say paid
 * and be of the period's amount.
 */
export function renewalPayment(terms: RenewalTerms, amount: number): RenewalTerms {
  if (terms.amount !== amount) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `A renewal of ${terms.amount} TWD cannot pay ${amount} TWD.`)
  }
  if (!PAID.has(terms.status as Transaction["status"])) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Transaction ${terms.transaction_hid} is not a paid period of this subscription.`)
  }
  return terms
}

/**
 * The session status of a checkout whose first charge is on a later date:
 * once the card is bound (`trialing`) the order is placed awaiting payment.
 */
export async function firstChargeStatus(deps: Deps, hid: string): Promise<PaymentSessionStatus> {
  let status: string
  try {
    status = (await deps.client.subscriptions.retrieve(hid)).status
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
      return PaymentSessionStatus.ERROR
    }
    throw toMedusaError(`Reading subscription ${hid}`, error)
  }
  switch (status) {
    case "pending":
      return PaymentSessionStatus.REQUIRES_MORE
    case "error":
      return PaymentSessionStatus.ERROR
    case "cancelled":
      return PaymentSessionStatus.CANCELED
    default:
      // trialing, active, retrying, completed: the card is bound; the period's own
      // transaction is recorded on the order by the subscription workflow.
      return PaymentSessionStatus.PENDING_AUTHORIZATION
  }
}

/** A bound card whose order will never be placed: the schedule is cancelled, so nothing is charged. */
export async function releaseSchedule(deps: Deps, hid: string): Promise<void> {
  try {
    const sub = await deps.client.subscriptions.retrieve(hid)
    if (sub.status === "trialing" || sub.status === "active" || sub.status === "retrying") {
      await deps.client.subscriptions.cancel(hid, { reason: "Checkout abandoned in the store" })
    }
  } catch (error) {
    deps.logger.warn(`hosted-checkout: could not cancel schedule ${hid} of a dropped session: ${(error as Error).message}`)
  }
}
