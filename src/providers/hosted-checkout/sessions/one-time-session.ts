import type { InitiatePaymentOutput, PaymentCustomerDTO, UpdatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { type CheckoutBody, invoiceLines, type Transaction } from "../../../lib/hosted"
import { UnknownOutcomeError } from "../../../lib/http"
import { toMedusaError } from "../../core/medusa-errors"
import { SHOPPER_ERROR } from "../../core/shopper-error-codes"
import { invoiceRequestFields } from "../invoice"
import { invoiceError } from "../invoice-errors"
import type { PaymentMethod } from "../options"
import type { HostedDeps } from "../provider-deps"
import { freshSessionData, type HostedSessionData, parseStorefrontData, type StorefrontData, transactionFacts } from "../hosted-checkout-session-data"

/**
 * One-time payments on the service's checkout page (card, cvs, atm, LINE Pay,
 * Apple Pay): a session without sealed terms or a saved card. Its
 * authorization is the base provider's fresh read of the page's transaction.
 */

export async function initiateOneTime(deps: HostedDeps, amount: number, input: StorefrontData, customer: PaymentCustomerDTO | undefined): Promise<InitiatePaymentOutput> {
  const sessionData = await openPage(deps, amount, input, customer, input.session_id)
  return { id: sessionData.transactionId, status: PaymentSessionStatus.REQUIRES_MORE, data: { ...sessionData } }
}

/**
 * Amount changes make a new page; a late payment of the old one is then
 * refunded as an orphan. The shopper's choices (methods, return path,
 * invoice) carry over; the cart's lines only if they still make the amount.
 */
export async function replacePage(
  deps: HostedDeps,
  amount: number,
  data: Record<string, unknown> | undefined,
  current: HostedSessionData,
  customer: PaymentCustomerDTO | undefined
): Promise<UpdatePaymentOutput> {
  const sessionData = await openPage(deps, amount, parseStorefrontData(data), customer, current.session_id)
  return { data: { ...data, ...sessionData }, status: PaymentSessionStatus.REQUIRES_MORE }
}

/**
 * A page nobody paid is left to expire; an issued cvs code is cancelled.
 * Other issued codes (atm, a pending wallet) cannot be: they expire, or are
 * refunded as orphans if paid late. Every kind is released so once it has a
 * transaction (a subscription page, a renewal, a charged saved card).
 */
export async function releaseUnpaid(deps: HostedDeps, tx: Transaction): Promise<Partial<HostedSessionData>> {
  if (tx.status === "charging" && tx.paymentMethod === "cvs") {
    // Spec 3.1/4.10: a refund of an unpaid convenience-store code cancels the code.
    try {
      const result = await deps.client.refunds.create(tx.transactionHid, { reason: "Order cancelled" })
      return { status: result.status }
    } catch (error) {
      throw toMedusaError(`Cancelling the convenience-store code of ${tx.transactionHid}`, error)
    }
  }
  if (tx.status === "charging") {
    deps.logger.warn(`hosted-checkout: ${tx.paymentMethod} payment ${tx.transactionHid} cannot be cancelled; it expires unpaid, or is refunded if paid late`)
  }
  return transactionFacts(tx)
}

/** The page's session data, with the lines an invoiced checkout is issued on (for refunds' allowances). */
async function openPage(deps: HostedDeps, amount: number, input: StorefrontData, customer: PaymentCustomerDTO | undefined, sessionId: string): Promise<HostedSessionData> {
  const body = checkoutBody(deps, amount, input, customer)
  const sessionData = await createCheckout(deps, body, sessionId)
  return { ...sessionData, ...(deps.options.einvoice ? { invoiceLines: body.productDetails } : {}) }
}

function checkoutBody({ options, productLine }: HostedDeps, amount: number, input: StorefrontData, customer: PaymentCustomerDTO | undefined): CheckoutBody {
  const extra = methodsFor(options.allowedMethods, input.methods)
  const storefront = options.storefrontUrl.replace(/\/+$/, "")
  const invoice = options.einvoice ? invoiceRequestFields(input, customer) : {}
  return {
    merchantId: options.merchantId,
    amount,
    currency: "TWD",
    // The merchant order id is the cart (every attempt of a cart can be listed, and a code paid after its
    // session was deleted still finds the cart's order), or the session without one; the custom id is the
    // session, so each transaction leads back to it.
    orderId: input.cart_id ?? input.session_id,
    customId: input.session_id,
    successUrl: `${storefront}${input.return_path ?? options.successPath}`,
    failureUrl: `${storefront}${options.failurePath}`,
    productDetails: options.einvoice ? invoiceLines(input.lines ?? [], amount, productLine) : [productLine(amount)],
    ...(extra.length ? { allowedPaymentMethods: extra } : {}),
    ...(options.threeDSecure ? { use3d: true } : {}),
    ...(customer?.id ? { userId: customer.id } : {}),
    ...invoice,
  }
}

/** Methods besides card the page offers: the shopper's choice within the merchant's, or all of the merchant's. */
function methodsFor(allowed: PaymentMethod[], requested: PaymentMethod[] | undefined): PaymentMethod[] {
  const refused = (requested ?? []).filter((m) => !allowed.includes(m))
  if (refused.length) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment method(s) not offered by this store: ${refused.join(", ")}.`, SHOPPER_ERROR.payment_method_not_offered)
  }
  return (requested ?? allowed).filter((m) => m !== "card")
}

/**
 * Creates the checkout. There is no idempotency: after an unknown outcome the
 * session's order is listed instead of sending again, and a checkout that did
 * get created is used.
 */
async function createCheckout({ client }: HostedDeps, body: CheckoutBody, sessionId: string): Promise<HostedSessionData> {
  const calledAt = new Date()
  try {
    const created = await client.checkouts.create(body)
    return pageData(sessionId, body.amount, created.id, created.transactionHid, created.page.url, created.page.expiresAt)
  } catch (error) {
    if (!(error instanceof UnknownOutcomeError)) {
      throw invoiceError("The payment page could not be created", error) ?? toMedusaError("Creating the hosted checkout failed", error)
    }
    const existing = await client.transactions.listByOrder(body.orderId).catch(() => [])
    const created = existing.find((tx) => tx.customId === sessionId && tx.amount === body.amount && tx.status === "initiated")
    if (!created) {
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment service did not answer and no checkout was created; please try again.", SHOPPER_ERROR.payment_service_unavailable)
    }
    const page = client.checkoutPage("checkout", created.id, created.createdAt ? new Date(created.createdAt) : calledAt)
    return pageData(sessionId, body.amount, created.id, created.transactionHid, page.url, page.expiresAt)
  }
}

function pageData(sessionId: string, amount: number, id: string, hid: string, url: string, expiresAt: Date | string): HostedSessionData {
  return {
    ...freshSessionData,
    session_id: sessionId,
    transactionId: id,
    transactionHid: hid,
    checkoutUrl: url,
    expiresAt: new Date(expiresAt).toISOString(),
    amount,
    status: "initiated",
  }
}
