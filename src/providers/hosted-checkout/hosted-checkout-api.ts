import type { Logger, ProviderWebhookPayload } from "@medusajs/framework/types"
import { HostedCheckoutClient, type HostedNotification, PAGE_VALIDITY_MS, parseNotification, type Transaction, transactionIdSchema } from "../../lib/hosted"
import { InvalidRequestError, NotFoundError } from "../../lib/http"
import { untrusted } from "../../lib/log"
import { Attestor } from "../core/attestation"
import { type Delivery, type DeliveryReading, type DeliveryRefusal, type ListedPage, type OrphanRefund, type PaymentApi, type PaymentObservation, statusKey, type UnsettledSession } from "../core/payment-api"
import type { ResolvedHostedCheckoutOptions } from "./options"
import { hostedDeps } from "./provider-deps"
import { refundTransaction } from "./refund-transaction"
import { type HostedSessionData, readSessionData, type RemitInfo, transactionFacts } from "./hosted-checkout-session-data"
import { FINAL, PAID, REFUND_STATES, WEBHOOK_ACTION } from "./hosted-checkout-status-map"
import { awaitsFirstCharge } from "./subscription-terms"

/** A page can be paid until it expires, plus 3-D Secure's 10 minutes and some slack. */
const PAGE_GRACE_MS = 20 * 60_000
/** A cvs/atm code may be reported paid a while after its deadline. */
const CODE_GRACE_MS = 24 * 3_600_000

/**
 * The hosted-checkout API as the provider and the event pipeline use it: the
 * client, the reading of notifications (unsigned: only a hint), and what one
 * fresh read of a transaction means for the store.
 */
export class HostedCheckoutApi implements PaymentApi {
  readonly idField = "transactionId"
  readonly client: HostedCheckoutClient
  readonly attestor: Attestor

  constructor(
    readonly options: ResolvedHostedCheckoutOptions,
    private readonly logger: Logger
  ) {
    this.client = new HostedCheckoutClient({
      apiToken: options.apiToken,
      merchantId: options.merchantId,
      baseUrl: options.apiBaseUrl,
      checkoutHost: options.checkoutHost,
      einvoice: options.einvoice,
      timeouts: options.timeouts,
      logger,
    })
    this.attestor = new Attestor(options.apiToken)
  }

  get account(): string {
    return `${this.options.apiBaseUrl}#${this.options.merchantId}`
  }

  readDelivery(payload: ProviderWebhookPayload["payload"]): DeliveryReading {
    const notification = this.readNotification(payload)
    const delivery = notification && this.deliveryOf(notification)
    return delivery ? { delivery } : { refusal: this.refusalOf(notification) }
  }

  /** The one parse of a notification's body (undefined, and logged, when malformed): the delivery subscriber hands it to the payment pipeline (`deliveryOf`, `refusalOf`) and to the subscription branch. */
  readNotification(payload: ProviderWebhookPayload["payload"]): HostedNotification | undefined {
    try {
      return parseNotification(payload.rawData?.length ? payload.rawData : payload.data)
    } catch (error) {
      this.logger.warn(`hosted-checkout: ignored a malformed notification: ${untrusted((error as Error).message, 300)}`)
      return undefined
    }
  }

  /** What the payment pipeline takes from a parsed notification: a charge of this merchant's. */
  deliveryOf(notification: HostedNotification): Delivery | undefined {
    // Refund and recurring notifications are re-read where they matter (admin refund view, subscriptions).
    if (notification.purpose !== "charge") {
      return undefined
    }
    if (!this.ofThisMerchant(notification)) {
      this.logger.warn(`hosted-checkout: ignored a notification for ${untrusted(notification.id)}: not a transaction of this merchant`)
      return undefined
    }
    // A repeated notification of the same state changes nothing; a new state is news. Unsigned: the
    // pipeline counts it as handled only once a read returned that state.
    const delivery: Delivery = { key: statusKey(notification.id, notification.status), serviceId: notification.id }
    // A subscription's charge names its checkout's session (token payments: as orderId, without customId).
    const session = notification.customId ?? notification.orderId
    if ((notification.action === "subscription" || notification.subscriptionId) && session?.startsWith("payses_")) {
      delivery.subscriptionSession = session
    }
    return delivery
  }

  /**
   * Why the pipeline refused what `readNotification` gave (undefined when malformed), for the health tallies.
   * Unsigned notifications can only be forged: malformed, or a charge naming no transaction of this merchant.
   */
  refusalOf(notification: HostedNotification | undefined): DeliveryRefusal | undefined {
    return !notification || (notification.purpose === "charge" && !this.ofThisMerchant(notification)) ? "forged" : undefined
  }

  private ofThisMerchant(notification: HostedNotification): boolean {
    return transactionIdSchema.safeParse(notification.id).success && notification.merchantId === this.options.merchantId
  }

  async observe(transactionId: string): Promise<PaymentObservation | undefined> {
    let tx: Transaction
    try {
      tx = await this.client.transactions.retrieve(transactionId)
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
        this.logger.warn(`hosted-checkout: ignored a notification for unknown transaction ${untrusted(transactionId)}`)
        return undefined
      }
      throw error
    }
    if (tx.merchantId !== this.options.merchantId) {
      this.logger.warn(`hosted-checkout: ignored transaction ${tx.transactionHid} of another merchant`)
      return undefined
    }
    if (tx.currency && tx.currency.toLowerCase() !== "twd") {
      this.logger.error(`hosted-checkout: ignored transaction ${tx.transactionHid} in ${untrusted(tx.currency)}`)
      return undefined
    }
    return this.observation(tx)
  }

  observation(tx: Transaction): PaymentObservation {
    return {
      serviceId: tx.id,
      label: `transaction ${tx.transactionHid}`,
      // Token payments (a saved card's charges, its subscription's periods) carry no customId: their orderId is the session.
      sessionId: tx.customId ?? (tx.orderId?.startsWith("payses_") ? tx.orderId : undefined),
      cartId: tx.orderId?.startsWith("cart_") ? tx.orderId : undefined,
      amount: tx.amount,
      status: tx.status,
      action: WEBHOOK_ACTION[tx.status],
      paid: PAID.has(tx.status),
      returned: REFUND_STATES.has(tx.status) || Number(tx.refundAmount ?? 0) > 0,
      paidAt: tx.paidAt,
      facts: transactionFacts(tx),
    }
  }

  /**
   * A session whose last read was final (failed, expired, cancelled, refunded)
   * has nothing more to learn; a paid one waits for its order; an awaiting
   * code until a day after its deadline; an open page until 20 minutes after
   * it expired.
   */
  reconcilable({ status, data }: UnsettledSession, now: number): boolean {
    const session = data as Partial<HostedSessionData>
    if (!session.transactionId || (session.status && FINAL.has(session.status))) {
      return false
    }
    if (awaitsFirstCharge(data)) {
      // A later first charge has no transaction yet: reconcile-tw-subscriptions reads its subscription.
      return false
    }
    if (session.status && PAID.has(session.status)) {
      return true
    }
    if (status === "pending_authorization") {
      const deadline = codeDeadline(session.paymentInfo)
      return Number.isNaN(deadline) || now < deadline + CODE_GRACE_MS
    }
    const expires = Date.parse(session.expiresAt ?? "")
    return Number.isNaN(expires) || now < expires + PAGE_GRACE_MS
  }

  /**
   * One page of `GET /transactions` (spec 4.8: 50 a page, oldest first in the
   * sandbox; the order is not specified). The position is the service's own
   * opaque page marker, so a later run resumes where this one stood.
   */
  async listPayments(position: string | undefined, _since: number, now: number): Promise<ListedPage> {
    const page = await this.client.transactions.listPage({ page: position })
    const payments = page.transactions
      .filter((tx) => tx.merchantId === this.options.merchantId && (!tx.currency || tx.currency.toLowerCase() === "twd"))
      .map((tx) => {
        const created = Date.parse(tx.createdAt ?? "")
        // Without a creation time the transaction counts as new: the window keeps it, once.
        const createdAt = Number.isNaN(created) ? now : created
        return { observation: this.observation(tx), createdAt, holdsMoney: PAID.has(tx.status) && !tx.refundAmount, open: stillOpen(tx, createdAt, now) }
      })
    return { payments, at: position, next: page.page ?? undefined }
  }

  /**
   * Card, LINE Pay and Apple Pay money is returned at once; cvs/atm payments
   * need the shopper's bank account, so they are answered as due by remittance.
   */
  async refundOrphan(observation: PaymentObservation, why: string): Promise<OrphanRefund> {
    const fresh = await this.client.transactions.retrieve(observation.serviceId)
    if (!PAID.has(fresh.status) || fresh.refundAmount) {
      return { kind: "nothing" }
    }
    if (fresh.paymentMethod === "cvs" || fresh.paymentMethod === "atm") {
      return { kind: "remittance", transactionHid: fresh.transactionHid, amount: fresh.amount, paymentMethod: fresh.paymentMethod }
    }
    await this.client.refunds.create(fresh.transactionHid, {
      reason: "Paid for a checkout the store had replaced",
      ...(this.options.einvoice ? { productDetails: [this.productLine(fresh.amount)] } : {}),
    })
    this.logger.warn(`hosted-checkout: refunded ${fresh.amount} TWD of ${fresh.transactionHid}: paid after ${why}`)
    return { kind: "refunded" }
  }

  /**
   * Returns a paid cvs/atm payment the store holds no order for to the
   * shopper's bank account (spec 4.10), in full. False when the service shows
   * it refunded already (an earlier call whose answer was lost, or the
   * service's console); a payment not paid is refused with the reason.
   */
  async refundByRemittance(transactionId: string, remitInfo: RemitInfo, refundId: string): Promise<boolean> {
    const tx = await this.client.transactions.retrieve(transactionId)
    if (tx.refundAmount) {
      return false
    }
    await refundTransaction(hostedDeps(this, this.logger), { remitInfo } as HostedSessionData, tx, tx.amount, refundId)
    return true
  }

  hasRefund(refundId: string, paymentData: Record<string, unknown>): boolean {
    return readSessionData(paymentData).refund?.id === refundId
  }

  async refundMade(refundId: string, paymentData: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const tx = await this.client.transactions.retrieve(readSessionData(paymentData).transactionId)
    // One refund per transaction: if it has one, the call the crash cut short made it.
    if (!tx.refundAmount) {
      return undefined
    }
    return { ...paymentData, status: tx.status, refundAmount: tx.refundAmount, refund: { id: refundId, amount: tx.refundAmount, status: tx.status, at: new Date().toISOString() } }
  }


  /** The single product line of a checkout or refund allowance. */
  productLine(amount: number) {
    return { productionCode: "ORDER", description: this.options.productDescription, quantity: 1, unit: "order", unitPrice: amount }
  }
}

/** The payment deadline of an issued cvs/atm code; NaN when the read does not give one. */
function codeDeadline(info: unknown): number {
  return typeof info === "object" && info && "expiredAt" in info ? Date.parse(String(info.expiredAt)) : Number.NaN
}

/** Whether the shopper can still pay (or the code still expire) without the store doing anything. */
function stillOpen(tx: Transaction, createdAt: number, now: number): boolean {
  if (tx.status === "initiated") {
    return now < createdAt + PAGE_VALIDITY_MS.checkout + PAGE_GRACE_MS
  }
  if (tx.status === "charging") {
    const deadline = codeDeadline(tx.paymentInfo)
    return Number.isNaN(deadline) || now < deadline + CODE_GRACE_MS
  }
  return false
}
