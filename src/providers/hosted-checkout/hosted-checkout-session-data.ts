import { z } from "zod"
import { type InvoiceInfo, invoiceInfoSchema, type ProductDetail, type Transaction } from "../../lib/hosted"
import { storefrontPath } from "../core/options"
import { parseStoredSessionData, sessionDataShape } from "../core/session-data-shape"
import type { ShopperErrorCode } from "../core/shopper-error-codes"
import { type Buyer, buyerSchema } from "./invoice"
import { PAYMENT_METHODS } from "./options"
import type { SessionSavedCard } from "./saved-card-charge-data"
import { failureCode } from "./hosted-checkout-status-map"
import type { SessionSubscription } from "./subscription-terms"

/**
 * What a storefront may send when it creates a session (Medusa passes its `data`
 * unfiltered). Anything else is refused: session data is public, and nothing a
 * shopper sends may steer amounts, ids or redirects off the store.
 */
/** One cart line (or delivery) as the invoice needs it; see `invoiceLines`. */
const orderLineSchema = z.strictObject({
  code: z.string().max(100),
  description: z.string().min(1).max(500),
  quantity: z.int().min(1),
  amount: z.number(),
})

const storefrontDataSchema = z.strictObject({
  /** Added by Medusa itself. */
  session_id: z.string().min(1),
  /** Methods to offer besides card; each must be allowed by the provider options. */
  methods: z.array(z.enum(PAYMENT_METHODS)).max(PAYMENT_METHODS.length).optional(),
  /** A storefront path to return to after paying, instead of the configured one. */
  return_path: storefrontPath.optional(),
  /** The shopper's e-invoice choice (carrier or company tax id), when the merchant issues e-invoices. */
  invoice: invoiceInfoSchema.optional(),
  /** The cart's buyer (name, email) for the e-invoice notice; the plugin's store middleware sets it from the cart. */
  buyer: buyerSchema.optional(),
  /** The cart's lines for the e-invoice; the plugin's store middleware sets them from the cart. */
  lines: z.array(orderLineSchema).max(200).optional(),
  /**
   * The cart the collection pays for, the page's `orderId`: money paid for a session deleted anyway still
   * finds the cart's order (`decide`'s adoption). The plugin's store middleware sets it from the collection.
   */
  cart_id: z.string().startsWith("cart_").max(100).optional(),
  /**
   * Pay with this saved card of the logged-in customer (docs/saved-cards.md): no page, the card is
   * charged when the cart is completed. Checked to be the customer's by the plugin's store middleware.
   */
  savedCardId: z.string().startsWith("twcard_", "must be a saved card id (twcard_…)").max(100).optional(),
  /**
   * Medusa's recipe keys (Stripe's), as subscription tools built on account holders send them: a
   * payment method id that `listPaymentMethods` returned, charged once when the session is authorized
   * with `off_session: true`. Mapped to the plugin's saved card in one place: `savedCardRequest`
   * (saved-card-charge-data.ts).
   */
  payment_method: z.string().startsWith("twcard_", "must be a saved card id (twcard_…) from listPaymentMethods").max(100).optional(),
  off_session: z.boolean().optional(),
  confirm: z.boolean().optional(),
  capture_method: z.enum(["automatic", "automatic_async", "manual"]).optional(),
})
export type StorefrontData = z.output<typeof storefrontDataSchema>

/** Keys the provider writes into session data (see `sessionDataShape`). */
const shape = sessionDataShape(storefrontDataSchema, [
  "transactionId",
  "transactionHid",
  "checkoutUrl",
  "expiresAt",
  "amount",
  "status",
  "paymentMethod",
  "paymentInfo",
  "paidAt",
  "refundAmount",
  "remitInfo",
  "refund",
  "attestation",
  "invoiceLines",
  "subscription",
  "customId",
  "savedCard",
  "errorCode",
  "offSession",
])

export const parseStorefrontData = shape.parseStorefront
/** What a new checkout's data starts from. */
export const freshSessionData = shape.fresh

/**
 * What the provider keeps in session (then payment) data. It reaches the
 * storefront, so it holds only ids, the page address and, once issued, the
 * convenience-store code or virtual account the shopper needs to pay.
 */
export interface HostedSessionData {
  session_id: string
  transactionId: string
  transactionHid: string
  checkoutUrl: string
  expiresAt: string
  /** Whole TWD, as sent to the service; checked against every re-read. */
  amount: number
  status?: Transaction["status"]
  paymentMethod?: string
  paymentInfo?: Transaction["paymentInfo"]
  paidAt?: string
  refundAmount?: number
  /**
   * Why the payment did not go through, for the shopper (`shopper-error-codes.ts`): a failed
   * transaction's reason (`failureCode` of the status map), or `payment_page_expired` for a page
   * left unpaid past its 5 minutes. Absent otherwise.
   */
  errorCode?: ShopperErrorCode
  /** Remittance details an admin supplied for refunding a paid cvs/atm payment. */
  remitInfo?: RemitInfo
  /** The one refund the service allows, once made. */
  refund?: { id?: string; amount: number; status: string; at: string }
  /** The event pipeline's sealed read (see `Attestor`). */
  attestation?: unknown
  /** A subscription's checkout or renewal (see `subscription-terms.ts`). */
  subscription?: SessionSubscription
  /** The `customId` the transaction carries when it is not this session's id: a renewal pays with a period of the subscription's checkout. */
  customId?: string
  /** A saved-card session: the card's id and last four digits (never its token). */
  savedCard?: SessionSavedCard
  /** A saved-card session charged when it is authorized, not at a cart's completion (Medusa's recipe, `off_session`). */
  offSession?: boolean
  /** The storefront's e-invoice choice, kept for the merchant (shown masked) and for a new page. */
  invoice?: InvoiceInfo
  buyer?: Buyer
  /** The `productDetails` the e-invoice was issued on; a refund's allowance lines are shares of them. */
  invoiceLines?: ProductDetail[]
}

export const remitInfoSchema = z.strictObject({
  bankCode: z.string().trim().min(1),
  bankName: z.string().trim().min(1),
  branchCode: z.string().trim().min(1),
  branchName: z.string().trim().min(1),
  account: z.string().trim().min(8, "must be 8 to 14 characters").max(14, "must be 8 to 14 characters"),
  accountName: z.string().trim().min(1),
})
export type RemitInfo = z.output<typeof remitInfoSchema>

/** A bank account as it may be shown back: only the last four characters. */
export const maskAccount = (account: string) => `${"*".repeat(Math.max(0, account.length - 4))}${account.slice(-4)}`

/** The fields every stored session has; the rest the provider wrote itself, as its type says. */
const storedFields = z.looseObject({
  session_id: z.string().min(1),
  transactionId: z.string().min(1),
  transactionHid: z.string().min(1),
  amount: z.number().int().positive(),
})

/** Reads the provider's own fields back from session or payment data. */
export function readSessionData(data: unknown): HostedSessionData {
  parseStoredSessionData(storedFields, data, "This payment has no hosted-checkout transaction")
  return data as HostedSessionData
}

/** The facts of a transaction worth keeping on the session and payment. */
export function transactionFacts(tx: Transaction): Partial<HostedSessionData> {
  return {
    status: tx.status,
    paymentMethod: tx.paymentMethod,
    paymentInfo: tx.paymentInfo,
    paidAt: tx.paidAt,
    refundAmount: tx.refundAmount,
    errorCode: failureCode(tx),
  }
}
