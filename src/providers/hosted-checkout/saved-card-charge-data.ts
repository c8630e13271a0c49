import type { PaymentCustomerDTO } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { invoiceLines, type ProductDetail, type TokenChargeBody, type TokenSubscriptionBody } from "../../lib/hosted"
import { SHOPPER_ERROR, type ShopperErrorCode } from "../core/shopper-error-codes"
import { invoiceRequestFields } from "./invoice"
import { productDetailsFor } from "./invoice-details"
import type { ResolvedHostedCheckoutOptions } from "./options"
import type { StorefrontData } from "./hosted-checkout-session-data"
import type { SubscriptionTerms } from "./subscription-terms"

/**
 * Payment sessions on a saved card (docs/saved-cards.md). The storefront
 * creates an ordinary session with `data: { savedCardId }`; nothing is
 * charged then. The charge (`POST /token/transactions`, or
 * `/token/subscriptions` for a subscription) is made by the plugin's store
 * middleware when the cart is completed (the workflow `charge-tw-saved-card`),
 * or, for an off-session session (Medusa's recipe keys, below), by the same
 * workflow run from the provider's authorization (`sessions/saved-card-session.ts`):
 * a provider cannot reach the plugin's module that holds the token
 * (container isolation), and the charge must be unique per session in the
 * database. The session itself holds only the card's public facts; the
 * provider's side of it is `sessions/saved-card-session.ts`. Here: what the charge
 * sends and what the shopper is told.
 */

/** What a saved-card session's data says about its card: public facts only, never a token. */
export interface SessionSavedCard {
  id: string
  last4: string | null
}

/** The saved card of session or payment data, when it is a saved-card session. */
export function sessionSavedCard(data: Record<string, unknown> | undefined): SessionSavedCard | undefined {
  const value = data?.savedCard as Partial<SessionSavedCard> | undefined
  return typeof value === "object" && value !== null && typeof value.id === "string" && value.id.startsWith("twcard_")
    ? { id: value.id, last4: typeof value.last4 === "string" ? value.last4 : null }
    : undefined
}

/**
 * Medusa's subscription recipe and the subscription tools built on account
 * holders pay a renewal as Stripe's provider is paid: they list the customer's
 * payment methods (`listPaymentMethods`, which shows the saved cards by their
 * `twcard_…` ids), create a session with `{ payment_method, off_session: true }`
 * (often also `confirm: true, capture_method: "automatic"`), then authorize and
 * capture it, with no cart completion. This is the one place where those keys
 * become the plugin's saved card (docs/saved-cards.md, "Medusa subscription
 * tools and the recipe pattern").
 */
export const RECIPE_KEYS = ["payment_method", "off_session", "confirm", "capture_method"] as const

/** The saved card a new session's data asks for. */
export interface SavedCardRequest {
  id: string
  /**
   * Charged when the session is authorized (`off_session: true`), for a
   * caller with no storefront completion; otherwise at the cart's completion.
   */
  offSession: boolean
}

type RequestKeys = Pick<StorefrontData, "savedCardId" | (typeof RECIPE_KEYS)[number]>

const invalid = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid payment session data (${message})`, SHOPPER_ERROR.payment_data_invalid)

/**
 * The saved card of a new session's (whitelisted) data: by the plugin's own
 * `savedCardId` or by the recipe's `payment_method`, the same card either way.
 * `confirm` is what the authorization of an off-session session does anyway;
 * `capture_method: "manual"` is refused: the service captures a token charge
 * when it makes it. The recipe's keys without a card mean nothing here.
 */
export function savedCardRequest(input: RequestKeys): SavedCardRequest | undefined {
  const { savedCardId, payment_method: paymentMethod } = input
  if (savedCardId && paymentMethod && savedCardId !== paymentMethod) {
    throw invalid("savedCardId and payment_method name two different cards")
  }
  const id = savedCardId ?? paymentMethod
  if (!id) {
    const stray = RECIPE_KEYS.filter((key) => input[key] !== undefined)
    if (stray.length) {
      throw invalid(`${stray.join(", ")}: only with payment_method, the id of a saved card that listPaymentMethods returned`)
    }
    return undefined
  }
  if (input.capture_method === "manual") {
    throw invalid('capture_method: "manual" is not possible, the service captures a saved card\'s charge when it makes it; use "automatic" or leave it out')
  }
  return { id, offSession: input.off_session === true }
}

/**
 * The value new session data names a saved card by, before any check (the
 * store middleware's question): the plugin's `savedCardId`, or the recipe's
 * `payment_method`, which other providers (Stripe's `pm_…`) use too.
 */
export function namedSavedCard(data: Record<string, unknown> | undefined): { key: "savedCardId" | "payment_method"; value: unknown } | undefined {
  if (data?.savedCardId !== undefined) {
    return { key: "savedCardId", value: data.savedCardId }
  }
  return data?.payment_method !== undefined ? { key: "payment_method", value: data.payment_method } : undefined
}

/**
 * The workflow that charges a saved card's session once (`charge-tw-saved-card`,
 * in the plugin's workflows): run by the store's completion middleware, and by
 * the provider's own authorization of an off-session session, which names it by
 * this id since a provider imports no workflow.
 */
export const SAVED_CARD_CHARGE_WORKFLOW_ID = "charge-tw-saved-card"

/** What the charge of a saved-card session came to (the workflow's answer). */
export type SavedCardChargeOutcome =
  /** The session holds the paid charge (sealed), or the schedule of a later first charge. */
  | { status: "paid" }
  /** Nothing was charged; the cart stays payable (a new session, with this card or another method). */
  | { status: "declined"; message: string; code?: ShopperErrorCode }
  /** Not known yet: the reconciliation settles it; never charged again. */
  | { status: "unknown"; message: string }

/** Fields every token payment of a session carries: the session is the service's `orderId`, as for pages. */
interface TokenPaymentInput {
  options: ResolvedHostedCheckoutOptions
  productLine(amount: number): ProductDetail
  sessionId: string
  amount: number
  /** The session's data: the storefront's invoice choice and the cart's buyer and lines (set at session creation). */
  data: Pick<StorefrontData, "invoice" | "buyer" | "lines"> & { offSession?: unknown }
  customer: Pick<PaymentCustomerDTO, "id" | "email" | "first_name" | "last_name" | "company_name"> | undefined
}

/**
 * `POST /token/transactions` for a session: the e-invoice fields and lines a
 * hosted checkout of the same cart would carry. Token charges carry no
 * `customId` (spec 2.3): the session id is the `orderId`, which every read
 * of the charge names. The token is added by the caller, at the last moment.
 */
export function tokenChargeBody(input: TokenPaymentInput): Omit<TokenChargeBody, "token"> {
  const { options, amount } = input
  return {
    merchantId: options.merchantId,
    amount,
    currency: "TWD",
    orderId: input.sessionId,
    productDetails: options.einvoice ? invoiceLines(input.data.lines ?? [], amount, input.productLine) : [input.productLine(amount)],
    ...(input.customer?.id ? { userId: input.customer.id } : {}),
    ...(options.einvoice ? invoiceRequestFields({ invoice: input.data.invoice, buyer: input.data.buyer, offSession: input.data.offSession === true }, input.customer) : {}),
  }
}

/**
 * `POST /token/subscriptions` for a subscription's session, on the sealed
 * terms the session was opened with: every period charged under the session's
 * `orderId`, invoiced on the shopper's choice, as a recurring page would be.
 * A later first date (`start_date` after today) only creates the schedule.
 * The token is added by the caller, at the last moment.
 */
export function tokenSubscriptionBody(input: TokenPaymentInput, terms: Pick<SubscriptionTerms, "interval_months" | "periods" | "start_date" | "customer_id">, laterStart: boolean): Omit<TokenSubscriptionBody, "token"> {
  const { options, amount } = input
  return {
    merchantId: options.merchantId,
    amount,
    currency: "TWD",
    orderId: input.sessionId,
    // Every period is invoiced on these lines: the cart's, as a recurring page's are.
    productDetails: productDetailsFor(options, input.data.lines, amount, input.productLine),
    userId: terms.customer_id,
    paymentInterval: terms.interval_months,
    ...(terms.periods ? { numberOfPeriods: terms.periods } : {}),
    ...(laterStart && terms.start_date ? { startDate: terms.start_date } : {}),
    ...(options.einvoice ? invoiceRequestFields({ invoice: input.data.invoice, buyer: input.data.buyer }, input.customer) : {}),
  }
}

/**
 * What a token charge's decline code means for the shopper. The spec leaves
 * `T0001`-`T0005` open; these are the sandbox's documented meanings
 * (packages/sandbox/README.md, test cards).
 */
const DECLINE_REASONS: Record<string, string> = {
  T0001: "the card details were not accepted (number, expiry or security code)",
  T0002: "the card's credit limit would be exceeded",
  T0003: "the card issuer refused the payment",
  T0004: "the payment was refused as a duplicate",
  T0005: "the charge failed",
}

const cardName = (card: SessionSavedCard) => (card.last4 ? `card •••• ${card.last4}` : "saved card")

/** The shopper's message for a declined (or refused) saved-card charge; the cart stays payable. */
export function declineMessage(card: SessionSavedCard, code: string | null | undefined): string {
  const what = !code ? "was declined" : DECLINE_REASONS[code] ? `was declined (${code}: ${DECLINE_REASONS[code]})` : `could not be charged (${code})`
  return `Your ${cardName(card)} ${what}. Nothing was charged: pay with another card or another payment method.`
}

/** The shopper's message when the service refused the charge before making it (not a card decline): no internals, the merchant's log has them. */
export function refusedMessage(card: SessionSavedCard): string {
  return `Your ${cardName(card)} could not be charged. Nothing was charged: pay with another card or another payment method.`
}

/** The shopper's message when the card cannot be used any more (deleted, or its token does not open): the reason stays in the merchant's log. */
export function unavailableMessage(card: SessionSavedCard): string {
  return `Your ${cardName(card)} can no longer be charged. Nothing was charged: pay with another card or another payment method.`
}

/** The shopper's message when a schedule's creation could not be confirmed (a schedule cannot be read by its order). */
export function notChargedMessage(card: SessionSavedCard): string {
  return `Your ${cardName(card)} was not charged: the payment service did not confirm the payment. Pay again, with this card or another payment method.`
}

/** The shopper's message when this session's charge was refunded (the cart had been paid another way, or could not take it). */
export function refundedMessage(card: SessionSavedCard): string {
  return `The payment with your ${cardName(card)} for this checkout was refunded. Pay again, with this card or another payment method.`
}

/**
 * The shopper's message while a charge's outcome is unknown (a time-out, a
 * 5xx, C026). It stays so until a read of the service settles it: never
 * charged twice, and a charge that shows up after the cart was paid another
 * way is refunded.
 */
export function pendingMessage(card: SessionSavedCard): string {
  return (
    `The payment with your ${cardName(card)} is being confirmed with the payment service. Do not pay again: ` +
    "if it went through, your order is placed automatically within a few minutes. If no order appears, you can pay again with a new payment; " +
    "this one is then refunded if it shows up as charged."
  )
}
