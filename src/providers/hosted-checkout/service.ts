import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeleteAccountHolderOutput,
  DeletePaymentInput,
  DeletePaymentMethodOutput,
  DeletePaymentOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  PaymentCustomerDTO,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrieveAccountHolderInput,
  RetrieveAccountHolderOutput,
  SavePaymentMethodOutput,
  UpdateAccountHolderInput,
  UpdateAccountHolderOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
} from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { allowanceLines, type CheckoutBody, type HostedCheckoutClient, invoiceLines, type ProductDetail, type Transaction, type TransactionStatus } from "../../lib/hosted"
import { DeclinedError, InvalidRequestError, PaymentServiceError, UnknownOutcomeError } from "../../lib/http"
import { TwPaymentProvider } from "../core/base-provider"
import { toMedusaError } from "../core/errors"
import { toTwd } from "../core/money"
import type { PaymentObservation } from "../core/payment-api"
import { accountHolderData, savedCardFacts } from "./account-holder"
import { HostedCheckoutApi } from "./api"
import { invoiceRequestFields } from "./invoice"
import { invoiceError } from "./invoice-errors"
import { type HostedCheckoutOptions, type PaymentMethod, parseHostedCheckoutOptions, type ResolvedHostedCheckoutOptions } from "./options"
import { freshSessionData, type HostedSessionData, parseStorefrontData, readSessionData, type StorefrontData, transactionFacts } from "./session-data"
import { savedCardOfCustomer, savedCardSessionData, savedCardSubscription, sessionSavedCard, updatedSavedCardSession } from "./saved-card-session"
import { PAID, SESSION_STATUS } from "./status-map"
import {
  awaitsFirstCharge,
  firstChargeStatus,
  openRenewalTerms,
  openSubscriptionCheckout,
  openSubscriptionTerms,
  releaseSchedule,
  renewalPayment,
  type RenewalTerms,
  sessionSubscription,
  type SubscriptionTerms,
} from "./subscription-session"

/** Where an admin supplies a shopper's bank account for a cvs/atm refund. */
export const REMITTANCE_ROUTE = "/admin/tw-payments/{payment_id}/remittance"

/**
 * Medusa payment provider for the service's hosted checkout pages: card,
 * convenience-store code (cvs), bank virtual account (atm), LINE Pay and
 * Apple Pay. Notifications are unsigned, so every decision is made on a fresh
 * read of the transaction, checked against the session it claims to belong to.
 */
export class HostedCheckoutProviderService extends TwPaymentProvider<HostedCheckoutOptions, HostedSessionData, Transaction> {
  static override identifier = "hosted-checkout"

  protected readonly options_: ResolvedHostedCheckoutOptions
  protected readonly api_: HostedCheckoutApi
  protected readonly client_: HostedCheckoutClient

  static override validateOptions(options: Record<string, unknown>): void {
    parseHostedCheckoutOptions(options)
  }

  constructor(cradle: Record<string, unknown>, options: HostedCheckoutOptions) {
    super(cradle, options)
    this.options_ = parseHostedCheckoutOptions(options)
    this.api_ = new HostedCheckoutApi(this.options_, this.logger_)
    this.client_ = this.api_.client
  }

  async initiatePayment({ amount, currency_code, data, context }: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const twd = toTwd(amount, currency_code)
    // Subscriptions and renewals only from the plugin's own code: sealed terms in the context (subscription-session.ts).
    const renewal = openRenewalTerms(this.api_.attestor, context as Record<string, unknown> | undefined)
    if (renewal) {
      return this.initiateRenewal(twd, parseStorefrontData(data), renewal)
    }
    const terms = openSubscriptionTerms(this.api_.attestor, context as Record<string, unknown> | undefined)
    const input = parseStorefrontData(data)
    if (input.savedCardId) {
      return this.initiateSavedCard(twd, input, input.savedCardId, terms, context)
    }
    if (terms) {
      return this.initiateSubscription(twd, input, terms, context?.customer)
    }
    const body = this.checkoutBody(twd, input, context?.customer)
    const sessionData = await this.createCheckout(body, input.session_id)
    return { id: sessionData.transactionId, status: PaymentSessionStatus.REQUIRES_MORE, data: { ...sessionData, ...this.invoiceKept(body) } }
  }

  /**
   * Amount changes make a new page; a late payment of the old one is then
   * refunded as an orphan. The shopper's choices (methods, return path,
   * invoice) carry over; the cart's lines only if they still make the amount.
   */
  async updatePayment({ amount, currency_code, data, context }: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    if (sessionSavedCard(data)) {
      return { data: updatedSavedCardSession(data!, toTwd(amount, currency_code)) }
    }
    const current = readSessionData(data)
    const twd = toTwd(amount, currency_code)
    if (twd === current.amount) {
      // Also how the event pipeline records a sealed read: the data is kept, the status left alone.
      return { data }
    }
    if (sessionSubscription(data)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The cart changed after the subscription checkout started: start the subscription checkout again.")
    }
    const input = parseStorefrontData(data)
    const body = this.checkoutBody(twd, input, context?.customer)
    const sessionData = await this.createCheckout(body, current.session_id)
    return { data: { ...data, ...sessionData, ...this.invoiceKept(body) }, status: PaymentSessionStatus.REQUIRES_MORE }
  }

  /** A later first charge: the card is bound, the subscription (not a transaction) says where it stands. */
  override async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const waiting = awaitsFirstCharge(input.data)
    if (waiting?.hid) {
      return { status: await firstChargeStatus(this.subscriptionDeps(), waiting.hid), data: input.data }
    }
    if (sessionSavedCard(input.data) && !input.data?.transactionId) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The saved card was not charged: complete the cart with POST /store/carts/{id}/complete, which charges it.")
    }
    return super.authorizePayment(input)
  }

  /** Nothing was charged yet for a later first charge: the order's cancellation cancels the schedule. */
  override async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const waiting = awaitsFirstCharge(input.data)
    if (waiting?.hid) {
      await releaseSchedule(this.subscriptionDeps(), waiting.hid)
      return { data: input.data }
    }
    return super.cancelPayment(input)
  }

  override async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    const waiting = awaitsFirstCharge(input.data)
    if (waiting?.hid) {
      await releaseSchedule(this.subscriptionDeps(), waiting.hid)
      return { data: input.data }
    }
    return super.deletePayment(input)
  }

  /** The service captures when it charges: capturing only confirms the money is there. */
  async capturePayment({ data }: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const tx = await this.retrieveChecked(readSessionData(data))
    // Money already returned (in part or in full) is not the service's to hold for this payment any more.
    if (!PAID.has(tx.status) || tx.refundAmount) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cannot capture: transaction ${tx.transactionHid} is ${tx.status}${tx.refundAmount ? ` with ${tx.refundAmount} TWD refunded` : ""}, not paid.`)
    }
    return { data: this.withFacts(data, tx) }
  }

  async refundPayment({ amount, data, context }: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const session = readSessionData(data)
    const refundAmount = toTwd(amount, "twd")
    const tx = await this.retrieveChecked(session)

    // A retried call for the refund already made (same Medusa refund id) is not a second refund.
    if (session.refund && session.refund.id === context?.idempotency_key && tx.refundAmount === session.refund.amount) {
      return { data: this.withFacts(data, tx) }
    }
    if (tx.refundAmount || !PAID.has(tx.status)) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        tx.refundAmount
          ? `Transaction ${tx.transactionHid} was already refunded (${tx.refundAmount} TWD, ${tx.status}). ` +
              "The service allows one refund per transaction, and a partial refund uses it up: return any further amount outside the service."
          : `Transaction ${tx.transactionHid} is ${tx.status}; only paid transactions can be refunded.`
      )
    }
    if (refundAmount > tx.amount) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cannot refund ${refundAmount} TWD of a ${tx.amount} TWD payment.`)
    }
    const needsRemittance = tx.paymentMethod === "cvs" || tx.paymentMethod === "atm"
    if (needsRemittance && !session.remitInfo) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `A paid ${tx.paymentMethod === "cvs" ? "convenience-store" : "bank transfer"} payment is refunded by bank remittance: ` +
          `first supply the shopper's bank account with POST ${REMITTANCE_ROUTE} (or the "Hosted checkout" box on the order page), then refund again.`
      )
    }

    let result: { status: Transaction["status"]; refundAmount: number }
    try {
      result = await this.client_.refunds.create(tx.transactionHid, {
        amount: refundAmount,
        reason: "Refund from the store",
        ...(needsRemittance ? { remitInfo: session.remitInfo } : {}),
        ...(this.options_.einvoice ? { productDetails: this.allowance(session.invoiceLines, refundAmount) } : {}),
      })
    } catch (error) {
      result = await this.refundOutcome(tx, refundAmount, error)
    }
    const refunded: Partial<HostedSessionData> = {
      status: result.status,
      refundAmount: result.refundAmount,
      // The bank account was needed once; keep only what identifies it.
      remitInfo: undefined,
      refund: { id: context?.idempotency_key, amount: result.refundAmount, status: result.status, at: new Date().toISOString() },
    }
    this.logger_.info(`hosted-checkout: refunded ${result.refundAmount} TWD of ${tx.transactionHid} (${result.status})`)
    return { data: { ...data, ...refunded } }
  }

  /**
   * Account holders, as Medusa's system provider makes them: the service has no
   * customer object, so the holder is the Medusa customer itself. Its data is
   * the mirror of the customer's saved cards (`account-holder.ts`), which the
   * plugin writes through the payment module's `updateAccountHolder`; the
   * cards and their tokens stay in the plugin's own module.
   */
  async createAccountHolder({ context }: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    if (!context?.customer?.id) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "An account holder needs a customer.")
    }
    return { id: context.customer.id, data: {} }
  }

  async retrieveAccountHolder({ id, context }: RetrieveAccountHolderInput): Promise<RetrieveAccountHolderOutput> {
    return { id, data: accountHolderData(context?.account_holder?.data) }
  }

  /** Keeps only the card facts of the data it is given: a token can never be stored here. */
  async updateAccountHolder({ context }: UpdateAccountHolderInput): Promise<UpdateAccountHolderOutput> {
    return { data: accountHolderData(context?.account_holder?.data) }
  }

  /** Nothing exists at the service for a holder; the saved cards stay in the plugin's module. */
  async deleteAccountHolder(): Promise<DeleteAccountHolderOutput> {
    return {}
  }

  /** The holder's saved cards (last four digits, label, dates): what `listPaymentMethods` of the payment module shows. */
  async listPaymentMethods({ context }: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return savedCardFacts(context?.account_holder?.data).map((card) => ({ id: card.id, data: { ...card } }))
  }

  /** A card is saved only by its binding page, whose token arrives by notification. */
  async savePaymentMethod(): Promise<SavePaymentMethodOutput> {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Cards are saved on the service's binding page: POST /store/customers/me/tw-saved-cards starts one (docs/saved-cards.md)."
    )
  }

  /** Deleting is the plugin route's work (`DELETE /store/customers/me/tw-saved-cards/:id`), which also updates the mirror. */
  async deletePaymentMethod(): Promise<DeletePaymentMethodOutput> {
    return { data: {} }
  }

  /** The recurring or scheduled page for sealed terms (the store route `POST /store/carts/:id/tw-subscription`). */
  protected async initiateSubscription(
    amount: number,
    input: StorefrontData,
    terms: SubscriptionTerms,
    customer: PaymentCustomerDTO | undefined
  ): Promise<InitiatePaymentOutput> {
    const opened = await openSubscriptionCheckout(this.subscriptionDeps(), {
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

  /** A saved card's session: nothing is charged until the cart's completion (saved-card-session.ts). */
  protected initiateSavedCard(
    amount: number,
    input: StorefrontData,
    savedCardId: string,
    terms: SubscriptionTerms | undefined,
    context: InitiatePaymentInput["context"]
  ): InitiatePaymentOutput {
    const card = savedCardOfCustomer(savedCardId, context)
    const subscription = terms ? savedCardSubscription(terms, amount, context!.customer!.id) : undefined
    return { id: input.session_id, status: PaymentSessionStatus.PENDING, data: savedCardSessionData(freshSessionData, input.session_id, amount, card, subscription) }
  }

  /**
   * A renewal order's payment: the period the service already charged, as the
   * subscription workflow's sealed read says (no read here), sealed again for
   * the session, so the authorization that follows does not read either.
   * With e-invoices on, the period was invoiced on its checkout's lines, which
   * the renewal workflow passes as `lines`: a refund's allowances share them out.
   */
  protected initiateRenewal(amount: number, input: StorefrontData, terms: RenewalTerms): InitiatePaymentOutput {
    const sessionId = input.session_id
    const read = renewalPayment(terms, amount)
    const sessionData: HostedSessionData = {
      ...freshSessionData,
      session_id: sessionId,
      transactionId: read.transaction_id,
      transactionHid: read.transaction_hid,
      checkoutUrl: "",
      expiresAt: "",
      amount,
      status: read.status as HostedSessionData["status"],
      paymentMethod: read.payment_method ?? undefined,
      paymentInfo: read.payment_info ?? undefined,
      paidAt: read.paid_at ?? undefined,
      customId: terms.custom_id,
      subscription: { id: terms.subscription_id, kind: terms.kind, checkoutId: read.transaction_id, startDate: null, firstChargeLater: false, period: terms.period },
      attestation: this.api_.attestor.seal({ sessionId, serviceId: read.transaction_id, amount, status: read.status }),
      ...(this.options_.einvoice ? { invoiceLines: invoiceLines(input.lines ?? [], amount, (rest) => this.api_.productLine(rest)) } : {}),
    }
    return { id: read.transaction_id, status: PaymentSessionStatus.PENDING, data: { ...sessionData } }
  }

  protected subscriptionDeps() {
    return { client: this.client_, options: this.options_, logger: this.logger_, productLine: (amount: number) => this.api_.productLine(amount) }
  }

  protected checkoutBody(amount: number, input: StorefrontData, customer: PaymentCustomerDTO | undefined): CheckoutBody {
    const extra = this.methodsFor(input.methods)
    const storefront = this.options_.storefrontUrl.replace(/\/+$/, "")
    const invoice = this.options_.einvoice ? invoiceRequestFields(input, customer) : {}
    return {
      merchantId: this.options_.merchantId,
      amount,
      currency: "TWD",
      // The session id is both the merchant order id (so every attempt of a session
      // can be listed) and the custom id (so each transaction leads back to it).
      orderId: input.session_id,
      customId: input.session_id,
      successUrl: `${storefront}${input.return_path ?? this.options_.successPath}`,
      failureUrl: `${storefront}${this.options_.failurePath}`,
      productDetails: this.options_.einvoice ? invoiceLines(input.lines ?? [], amount, (rest) => this.api_.productLine(rest)) : [this.api_.productLine(amount)],
      ...(extra.length ? { allowedPaymentMethods: extra } : {}),
      ...(this.options_.threeDSecure ? { use3d: true } : {}),
      ...(customer?.id ? { userId: customer.id } : {}),
      ...invoice,
    }
  }

  /** What an invoiced checkout keeps on the session: the lines the invoice is issued on, for refunds' allowances. */
  protected invoiceKept(body: CheckoutBody): Partial<HostedSessionData> {
    return this.options_.einvoice ? { invoiceLines: body.productDetails } : {}
  }

  /** Allowance lines of a refund; see `allowanceLines` (docs/providers.md, "E-invoices"). */
  protected allowance(invoiced: ProductDetail[] | undefined, amount: number): ProductDetail[] {
    return allowanceLines(invoiced, amount, (rest) => this.api_.productLine(rest))
  }

  /** Methods besides card the page offers: the shopper's choice within the merchant's, or all of the merchant's. */
  protected methodsFor(requested: PaymentMethod[] | undefined): PaymentMethod[] {
    const allowed = this.options_.allowedMethods
    const refused = (requested ?? []).filter((m) => !allowed.includes(m))
    if (refused.length) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment method(s) not offered by this store: ${refused.join(", ")}.`)
    }
    return (requested ?? allowed).filter((m) => m !== "card")
  }

  /**
   * Creates the checkout. There is no idempotency: after an unknown outcome the
   * session's order is listed instead of sending again, and a checkout that did
   * get created is used.
   */
  protected async createCheckout(body: CheckoutBody, sessionId: string): Promise<HostedSessionData> {
    const calledAt = new Date()
    try {
      const created = await this.client_.checkouts.create(body)
      return this.sessionData(sessionId, body.amount, created.id, created.transactionHid, created.page.url, created.page.expiresAt)
    } catch (error) {
      if (!(error instanceof UnknownOutcomeError)) {
        throw invoiceError("The payment page could not be created", error) ?? toMedusaError("Creating the hosted checkout failed", error)
      }
      const existing = await this.client_.transactions.listByOrder(sessionId).catch(() => [])
      const created = existing.find((tx) => tx.customId === sessionId && tx.amount === body.amount && tx.status === "initiated")
      if (!created) {
        throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment service did not answer and no checkout was created; please try again.")
      }
      const page = this.client_.checkoutPage("checkout", created.id, created.createdAt ? new Date(created.createdAt) : calledAt)
      return this.sessionData(sessionId, body.amount, created.id, created.transactionHid, page.url, page.expiresAt)
    }
  }

  protected sessionData(sessionId: string, amount: number, id: string, hid: string, url: string, expiresAt: Date | string): HostedSessionData {
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

  protected readSession(data: unknown): HostedSessionData {
    return readSessionData(data)
  }

  protected sessionStatus(status: string) {
    return SESSION_STATUS[status as TransactionStatus]
  }

  protected observe(tx: Transaction): PaymentObservation {
    return this.api_.observation(tx)
  }

  /** Re-reads the transaction and refuses one that is not this session's. */
  protected async retrieveChecked(session: HostedSessionData): Promise<Transaction> {
    let tx: Transaction
    try {
      tx = await this.client_.transactions.retrieve(session.transactionId)
    } catch (error) {
      throw toMedusaError(`Reading transaction ${session.transactionHid}`, error)
    }
    const problem =
      tx.merchantId !== this.options_.merchantId
        ? "another merchant"
        : // A saved card's charge carries no customId: its orderId is the session (saved-card-session.ts).
        (tx.customId ?? tx.orderId) !== (session.customId ?? session.session_id)
          ? "another session"
          : tx.amount !== session.amount
            ? `another amount (${tx.amount} TWD instead of ${session.amount})`
            : undefined
    if (problem) {
      this.logger_.error(`hosted-checkout: transaction ${tx.transactionHid} belongs to ${problem}; refused for session ${session.session_id}`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Transaction ${tx.transactionHid} does not match this payment session (${problem}).`)
    }
    return tx
  }

  /**
   * A page nobody paid is left to expire; an issued cvs code is cancelled.
   * Other issued codes (atm, a pending wallet) cannot be: they expire, or are
   * refunded as orphans if paid late.
   */
  protected async releaseUnpaid(data: Record<string, unknown> | undefined, tx: Transaction): Promise<Record<string, unknown>> {
    return { ...data, ...(await this.voidUnpaid(tx)) }
  }

  protected async voidUnpaid(tx: Transaction): Promise<Partial<HostedSessionData>> {
    if (tx.status === "charging" && tx.paymentMethod === "cvs") {
      // Spec 3.1/4.10: a refund of an unpaid convenience-store code cancels the code.
      try {
        const result = await this.client_.refunds.create(tx.transactionHid, { reason: "Order cancelled" })
        return { status: result.status }
      } catch (error) {
        throw toMedusaError(`Cancelling the convenience-store code of ${tx.transactionHid}`, error)
      }
    }
    if (tx.status === "charging") {
      this.logger_.warn(`hosted-checkout: ${tx.paymentMethod} payment ${tx.transactionHid} cannot be cancelled; it expires unpaid, or is refunded if paid late`)
    }
    return transactionFacts(tx)
  }

  /**
   * After a refund call whose answer is unknown or refused, the transaction is
   * re-read before anything else: a refund that did happen is success, one that
   * did not is a clear error and nothing is resent.
   */
  protected async refundOutcome(tx: Transaction, amount: number, error: unknown) {
    const unknown = error instanceof UnknownOutcomeError || (error instanceof PaymentServiceError && error.retryable)
    if (!unknown && !(error instanceof DeclinedError)) {
      if (error instanceof InvalidRequestError && error.variant === "CURRENT_CHARGED_AMOUNT_TOO_LOW") {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "The service refuses refunds while the store's collected but not yet paid-out amount is below 200 TWD. Try again after the next sales, or refund outside the service."
        )
      }
      throw invoiceError(`Refunding ${tx.transactionHid}`, error) ?? toMedusaError(`Refunding ${tx.transactionHid}`, error)
    }
    const after = await this.client_.transactions.retrieve(tx.id).catch(() => undefined)
    if (after?.refundAmount === amount) {
      return { status: after.status, refundAmount: amount }
    }
    if (error instanceof DeclinedError) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The acquirer rejected the refund of ${tx.transactionHid} (R0001); the transaction is ${after?.status ?? "unknown"}. ` +
          "Try again later; if the service then answers that the state does not allow a refund, confirm it with the service."
      )
    }
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The refund of ${tx.transactionHid} got no clear answer, and a fresh read shows ${after ? `${after.status} with no refund` : "nothing"}. Nothing was resent; try again in a minute.`
    )
  }
}
