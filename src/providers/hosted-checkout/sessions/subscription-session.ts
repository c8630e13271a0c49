import type { InitiatePaymentOutput, PaymentCustomerDTO } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { compareCalendarDates, formatCalendarDate, type InvoiceInfo, type OrderLine, parseCalendarDate, type ProductDetail, taipeiDate } from "../../../lib/hosted"
import { UnknownOutcomeError } from "../../../lib/http"
import { toMedusaError } from "../../core/medusa-errors"
import { SHOPPER_ERROR } from "../../core/shopper-error-codes"
import { invoiceRequestFields } from "../invoice"
import { productDetailsFor } from "../invoice-details"
import type { HostedDeps } from "../provider-deps"
import { freshSessionData, type HostedSessionData, type StorefrontData } from "../hosted-checkout-session-data"
import type { SessionSubscription, SubscriptionTerms } from "../subscription-terms"

/**
 * A subscription's checkout page: the recurring or scheduled page for the
 * sealed terms the store route `POST /store/carts/:id/tw-subscription` put in
 * the session's context. The page's transaction is authorized as a one-time
 * page's is; a scheduled page starting later only binds the card
 * (`first-charge-later-session.ts` then answers for it).
 */

export async function initiateSubscription(
  deps: HostedDeps,
  amount: number,
  input: StorefrontData,
  terms: SubscriptionTerms,
  customer: PaymentCustomerDTO | undefined
): Promise<InitiatePaymentOutput> {
  const opened = await openSubscriptionCheckout(deps, {
    sessionId: input.session_id,
    amount,
    terms,
    customer,
    returnPath: input.return_path,
    invoice: input.invoice,
    lines: input.lines,
  })
  const sessionData: HostedSessionData = {
    ...freshSessionData,
    session_id: input.session_id,
    transactionId: opened.transactionId,
    transactionHid: opened.transactionHid,
    checkoutUrl: opened.checkoutUrl,
    expiresAt: opened.expiresAt,
    amount,
    status: "initiated",
    subscription: opened.subscription,
    ...(opened.invoiceLines ? { invoiceLines: opened.invoiceLines } : {}),
  }
  return { id: opened.transactionId, status: PaymentSessionStatus.REQUIRES_MORE, data: { ...sessionData } }
}

/** The amount is sealed in the terms: a changed cart starts the subscription checkout again. */
export const cartChangedError = () =>
  new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart changed after the subscription checkout started: start the subscription checkout again.", SHOPPER_ERROR.subscription_cart_changed)

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
  deps: Pick<HostedDeps, "client" | "options" | "productLine">,
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
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The cart's total (${amount} TWD) is not the subscription's amount (${terms.amount} TWD); start the subscription checkout again.`, SHOPPER_ERROR.subscription_cart_changed)
  }
  if (input.customer?.id && input.customer.id !== terms.customer_id) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The subscription belongs to another customer.", SHOPPER_ERROR.subscription_not_yours)
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
      throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment service did not answer; no subscription was started. Please try again.", SHOPPER_ERROR.payment_service_unavailable)
    }
    throw toMedusaError("Creating the subscription checkout failed", error)
  }
}
