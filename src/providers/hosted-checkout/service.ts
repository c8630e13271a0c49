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
import type { Transaction, TransactionStatus } from "../../lib/hosted"
import { TwPaymentProvider } from "../core/base-provider"
import { toMedusaError } from "../core/medusa-errors"
import { SHOPPER_ERROR } from "../core/shopper-error-codes"
import { toTwd } from "../core/money"
import type { PaymentObservation } from "../core/payment-api"
import { accountHolderData, savedCardFacts } from "./account-holder"
import { HostedCheckoutApi } from "./hosted-checkout-api"
import { type HostedCheckoutOptions, parseHostedCheckoutOptions, type ResolvedHostedCheckoutOptions } from "./options"
import { type HostedDeps, hostedDeps } from "./provider-deps"
import { refundTransaction, repeatsRefund } from "./refund-transaction"
import { sessionSavedCard } from "./saved-card-charge-data"
import { heldSession, openingSession } from "./session-kind"
import { type HostedSessionData, readSessionData } from "./hosted-checkout-session-data"
import { initiateAdopted } from "./sessions/adopted-session"
import { firstChargeStatus, releaseSchedule } from "./sessions/first-charge-later-session"
import { initiateOneTime, releaseUnpaid, replacePage } from "./sessions/one-time-session"
import { initiateRenewal } from "./sessions/renewal-session"
import { chargeOffSession, initiateSavedCard, refuseUncharged, updatedSavedCardSession } from "./sessions/saved-card-session"
import { cartChangedError, initiateSubscription } from "./sessions/subscription-session"
import { PAID, SESSION_STATUS } from "./hosted-checkout-status-map"
import { sessionSubscription } from "./subscription-terms"

/**
 * Medusa payment provider for the service's hosted checkout pages: card,
 * convenience-store code (cvs), bank virtual account (atm), LINE Pay and
 * Apple Pay. Notifications are unsigned, so every decision is made on a fresh
 * read of the transaction, checked against the session it claims to belong to.
 *
 * Each session kind (one-time page, subscription page, first charge later,
 * saved card, renewal, adopted payment) is a module of `sessions/`; this class tells the kind
 * (`session-kind.ts`) and hands the call over.
 */
export class HostedCheckoutProviderService extends TwPaymentProvider<HostedCheckoutOptions, HostedSessionData, Transaction> {
  static override identifier = "hosted-checkout"

  protected readonly options_: ResolvedHostedCheckoutOptions
  protected readonly api_: HostedCheckoutApi
  protected readonly deps_: HostedDeps

  static override validateOptions(options: Record<string, unknown>): void {
    parseHostedCheckoutOptions(options)
  }

  constructor(cradle: Record<string, unknown>, options: HostedCheckoutOptions) {
    super(cradle, options)
    this.options_ = parseHostedCheckoutOptions(options)
    this.api_ = new HostedCheckoutApi(this.options_, this.logger_)
    this.deps_ = hostedDeps(this.api_, this.logger_)
  }

  async initiatePayment({ amount, currency_code, data, context }: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const twd = toTwd(amount, currency_code)
    const opening = openingSession(this.api_.attestor, { data, context })
    switch (opening.kind) {
      case "adopted":
        return initiateAdopted(this.deps_, twd, opening.input, opening.terms)
      case "renewal":
        return initiateRenewal(this.deps_, twd, opening.input, opening.terms)
      case "saved-card":
        return initiateSavedCard(twd, opening.input, opening.card, opening.terms, context)
      case "subscription":
        return initiateSubscription(this.deps_, twd, opening.input, opening.terms, context?.customer)
      case "one-time":
        return initiateOneTime(this.deps_, twd, opening.input, context?.customer)
    }
  }

  /** A saved card's session changes its amount to charge; a page is replaced; a subscription's amount is sealed. */
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
      throw cartChangedError()
    }
    return replacePage(this.deps_, twd, data, current, context?.customer)
  }

  /**
   * A later first charge: the card is bound, the subscription (not a transaction) says where it stands.
   * A saved card not charged yet: an off-session session (Medusa's recipe) is charged now, once, and
   * authorized from the charge, or left `pending_authorization` while its outcome is unknown (the
   * reconciliation settles it); any other is charged by the cart's completion.
   */
  override async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const held = heldSession(input.data)
    switch (held.kind) {
      case "first-charge-later":
        return { status: await firstChargeStatus(this.deps_, held.hid), data: input.data }
      case "uncharged-saved-card": {
        if (!held.offSession) {
          return refuseUncharged()
        }
        const charged = await chargeOffSession(input.data!)
        return charged ? super.authorizePayment({ ...input, data: charged }) : { status: PaymentSessionStatus.PENDING_AUTHORIZATION, data: input.data }
      }
      case "transaction":
        return super.authorizePayment(input)
    }
  }

  /** Nothing was charged yet for a later first charge: the order's cancellation cancels the schedule. */
  override async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    return (await this.releasedSchedule(input.data)) ?? super.cancelPayment(input)
  }

  override async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return (await this.releasedSchedule(input.data)) ?? super.deletePayment(input)
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

  /** One refund per transaction, on a fresh read (`refund-transaction.ts`). */
  async refundPayment({ amount, data, context }: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const session = readSessionData(data)
    const refundAmount = toTwd(amount, "twd")
    const tx = await this.retrieveChecked(session)
    if (repeatsRefund(session, tx, context?.idempotency_key)) {
      return { data: this.withFacts(data, tx) }
    }
    return { data: { ...data, ...(await refundTransaction(this.deps_, session, tx, refundAmount, context?.idempotency_key)) } }
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

  /** A later first charge's release, for cancel and delete; undefined for any other session. */
  protected async releasedSchedule(data: Record<string, unknown> | undefined): Promise<{ data: Record<string, unknown> | undefined } | undefined> {
    const held = heldSession(data)
    if (held.kind !== "first-charge-later") {
      return undefined
    }
    await releaseSchedule(this.deps_, held.hid)
    return { data }
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
      tx = await this.deps_.client.transactions.retrieve(session.transactionId)
    } catch (error) {
      throw toMedusaError(`Reading transaction ${session.transactionHid}`, error)
    }
    const problem =
      tx.merchantId !== this.options_.merchantId
        ? "another merchant"
        : // A saved card's charge carries no customId: its orderId is the session (saved-card-charge-data.ts).
        (tx.customId ?? tx.orderId) !== (session.customId ?? session.session_id)
          ? "another session"
          : tx.amount !== session.amount
            ? `another amount (${tx.amount} TWD instead of ${session.amount})`
            : undefined
    if (problem) {
      this.logger_.error(`hosted-checkout: transaction ${tx.transactionHid} belongs to ${problem}; refused for session ${session.session_id}`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Transaction ${tx.transactionHid} does not match this payment session (${problem}).`, SHOPPER_ERROR.payment_session_mismatch)
    }
    return tx
  }

  /** Any kind with a transaction is released as a page is (`sessions/one-time-session.ts`). */
  protected async releaseUnpaid(data: Record<string, unknown> | undefined, tx: Transaction): Promise<Record<string, unknown>> {
    return { ...data, ...(await releaseUnpaid(this.deps_, tx)) }
  }

  /** A page still unpaid past its 5 minutes tells the shopper so: the transaction itself stays `initiated` (spec 3.1). */
  protected override withFacts(data: Record<string, unknown> | undefined, tx: Transaction): Record<string, unknown> {
    const facts = super.withFacts(data, tx)
    const expiresAt = typeof data?.expiresAt === "string" ? Date.parse(data.expiresAt) : NaN
    return tx.status === "initiated" && expiresAt < Date.now() ? { ...facts, errorCode: SHOPPER_ERROR.payment_page_expired } : facts
  }
}
