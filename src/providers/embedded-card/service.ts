import type {
  CapturePaymentInput,
  CapturePaymentOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  RefundPaymentInput,
  RefundPaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
} from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { EmbeddedCardClient, PaymentIntent, PaymentIntentStatus, Refund } from "../../lib/embedded"
import { InvalidRequestError, UnknownOutcomeError } from "../../lib/http"
import { TwPaymentProvider } from "../core/base-provider"
import { toMedusaError } from "../core/medusa-errors"
import { SHOPPER_ERROR } from "../core/shopper-error-codes"
import { toTwd } from "../core/money"
import type { PaymentObservation } from "../core/payment-api"
import { EmbeddedCardApi } from "./embedded-card-api"
import { type EmbeddedCardOptions, parseEmbeddedCardOptions, type ResolvedEmbeddedCardOptions } from "./options"
import { DEFAULT_SDK_LOCALE, type EmbeddedSessionData, freshSessionData, parseStorefrontData, readSessionData, type SdkLocale } from "./embedded-card-session-data"
import { SESSION_STATUS } from "./embedded-card-status-map"

/**
 * Medusa payment provider for the service's embedded card form: payment
 * intents confirmed in the browser by the SDK, signed webhooks, idempotent
 * creates and partial refunds.
 */
export class EmbeddedCardProviderService extends TwPaymentProvider<EmbeddedCardOptions, EmbeddedSessionData, PaymentIntent> {
  static override identifier = "embedded-card"

  protected readonly options_: ResolvedEmbeddedCardOptions
  protected readonly api_: EmbeddedCardApi
  protected readonly client_: EmbeddedCardClient

  static override validateOptions(options: Record<string, unknown>): void {
    if (!parseEmbeddedCardOptions(options).webhookSecrets.length) {
      console.warn(
        "medusa-payment-tw embedded-card: no `webhookSecrets` configured, so every webhook will be rejected and payments settle only through the reconciliation job (every minute). " +
          "Register the store's webhook endpoint (npx medusa-payment-tw-register-webhook) and set the secret it prints."
      )
    }
  }

  constructor(cradle: Record<string, unknown>, options: EmbeddedCardOptions) {
    super(cradle, options)
    this.options_ = parseEmbeddedCardOptions(options)
    this.api_ = new EmbeddedCardApi(this.options_, this.logger_)
    this.client_ = this.api_.client
  }

  async initiatePayment({ amount, currency_code, data, context }: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const twd = toTwd(amount, currency_code)
    const input = parseStorefrontData(data)
    const sessionData = await this.createIntent(twd, input.session_id, input.return_path, context?.idempotency_key, input.locale)
    return { id: sessionData.paymentIntentId, status: PaymentSessionStatus.REQUIRES_MORE, data: { ...sessionData } }
  }

  /** Only metadata of an intent can change: a new amount cancels the intent and creates another. */
  async updatePayment({ amount, currency_code, data, context }: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const current = readSessionData(data)
    const twd = toTwd(amount, currency_code)
    if (twd === current.amount) {
      // Also how the event pipeline records a sealed read: the data is kept, the status left alone.
      return { data }
    }
    await this.cancelIntent(current.paymentIntentId)
    const key = context?.idempotency_key ? `${context.idempotency_key}:${twd}` : undefined
    const sessionData = await this.createIntent(twd, current.session_id, undefined, key, current.locale)
    return { data: { ...sessionData }, status: PaymentSessionStatus.REQUIRES_MORE }
  }

  /** Intents are captured when they succeed; capturing only confirms it. */
  async capturePayment({ data }: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const intent = await this.retrieveChecked(readSessionData(data))
    if (intent.status !== "succeeded" || this.moneyReturned(intent)) {
      const refunded = this.moneyReturned(intent) ? ` with ${intent.amount - intent.amountRefundable} TWD refunded` : ""
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cannot capture: payment intent ${intent.id} is ${intent.status}${refunded}.`)
    }
    return { data: this.withFacts(data, intent) }
  }

  /**
   * Several partial refunds are allowed up to what is refundable. The
   * idempotency key comes from Medusa's refund id, so a retried call cannot
   * refund twice; after an unknown outcome the refunds are listed first.
   */
  async refundPayment({ amount, data, context }: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const session = readSessionData(data)
    const refundAmount = toTwd(amount, "twd")
    const medusaRefundId = context?.idempotency_key
    const idempotencyKey = medusaRefundId ? `medusa-refund-${medusaRefundId}` : undefined
    const params = {
      paymentIntentId: session.paymentIntentId,
      amount: refundAmount,
      reason: "requested_by_customer" as const,
      ...(medusaRefundId ? { metadata: { medusa_refund_id: medusaRefundId } } : {}),
    }

    let refund: Refund
    try {
      refund = await this.client_.refunds.create(params, { idempotencyKey })
    } catch (error) {
      refund = await this.refundOutcome(session, medusaRefundId, error)
    }
    // A 200 can carry a refund that failed: the body decides, not the status code.
    if (refund.status === "failed") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The service declined the refund of ${refundAmount} TWD (${refund.failureCode ?? "no reason given"}); nothing was refunded.`
      )
    }
    const refunds = [...(session.refunds ?? []).filter((r) => r.id !== refund.id), { id: refund.id, medusaRefundId, amount: refund.amount, status: refund.status }]
    this.logger_.info(`embedded-card: refund ${refund.id} of ${refund.amount} TWD on ${session.paymentIntentId} is ${refund.status}`)
    return { data: { ...data, refunds } }
  }

  protected async createIntent(
    amount: number,
    sessionId: string,
    returnPath: string | undefined,
    idempotencyKey: string | undefined,
    locale: SdkLocale | undefined
  ): Promise<EmbeddedSessionData> {
    const returnUrl = `${this.options_.storefrontUrl.replace(/\/+$/, "")}${returnPath ?? this.options_.returnPath}`
    try {
      const intent = await this.client_.paymentIntents.create(
        {
          amount,
          currency: "TWD",
          orderId: sessionId,
          returnUrl,
          ...(this.options_.description ? { description: this.options_.description } : {}),
          metadata: { session_id: sessionId },
        },
        // Derived from Medusa's key (the session id): a retried initiate gets the same intent back.
        { idempotencyKey: idempotencyKey ? `medusa-session-${idempotencyKey}` : undefined }
      )
      return {
        ...freshSessionData,
        session_id: sessionId,
        paymentIntentId: intent.id,
        clientSecret: intent.clientSecret,
        publishableKey: this.options_.publishableKey,
        sdkUrl: this.options_.sdkUrl,
        ...(this.options_.sdkIntegrity ? { sdkIntegrity: this.options_.sdkIntegrity } : {}),
        returnUrl,
        amount,
        status: intent.status,
        locale: locale ?? DEFAULT_SDK_LOCALE,
      }
    } catch (error) {
      throw toMedusaError("Creating the payment intent failed", error)
    }
  }

  /** An open intent is cancelled. */
  protected async releaseUnpaid(data: Record<string, unknown> | undefined, intent: PaymentIntent): Promise<Record<string, unknown>> {
    return this.withFacts(data, await this.cancelIntent(intent.id))
  }

  /** Cancels an intent; one already cancelled (or failed) is fine. */
  protected async cancelIntent(id: string): Promise<PaymentIntent> {
    try {
      return await this.client_.paymentIntents.cancel(id)
    } catch (error) {
      const current = await this.client_.paymentIntents.retrieve(id).catch(() => undefined)
      if (current && (current.status === "canceled" || current.status === "failed")) {
        return current
      }
      throw toMedusaError(`Cancelling payment intent ${id}`, error)
    }
  }

  protected async retrieveChecked(session: EmbeddedSessionData): Promise<PaymentIntent> {
    let intent: PaymentIntent
    try {
      intent = await this.client_.paymentIntents.retrieve(session.paymentIntentId)
    } catch (error) {
      throw toMedusaError(`Reading payment intent ${session.paymentIntentId}`, error)
    }
    const problem =
      intent.metadata?.session_id !== session.session_id
        ? "another session"
        : intent.amount !== session.amount
          ? `another amount (${intent.amount} TWD instead of ${session.amount})`
          : intent.currency.toUpperCase() !== "TWD"
            ? `another currency (${intent.currency})`
            : undefined
    if (problem) {
      this.logger_.error(`embedded-card: payment intent ${intent.id} belongs to ${problem}; refused for session ${session.session_id}`)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment intent ${intent.id} does not match this payment session (${problem}).`, SHOPPER_ERROR.payment_session_mismatch)
    }
    return intent
  }

  protected readSession(data: unknown): EmbeddedSessionData {
    return readSessionData(data)
  }

  protected sessionStatus(status: string) {
    return SESSION_STATUS[status as PaymentIntentStatus]
  }

  /** A succeeded intent keeps its status when refunded: what is left to refund tells. */
  protected override moneyReturned(intent: PaymentIntent): boolean {
    return this.observe(intent).returned
  }

  protected observe(intent: PaymentIntent): PaymentObservation {
    return this.api_.observation(intent)
  }

  /**
   * After an unknown outcome (`REFUND_RECONCILIATION_REQUIRED`, 500, time-out)
   * the intent's refunds are listed before anything else; a refund carrying
   * this Medusa refund id is the answer. Other errors become clear messages.
   */
  protected async refundOutcome(session: EmbeddedSessionData, medusaRefundId: string | undefined, error: unknown): Promise<Refund> {
    if (error instanceof InvalidRequestError && (error.code === "REFUND_AMOUNT_EXCEEDED" || error.code === "REFUND_WINDOW_EXPIRED")) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        error.code === "REFUND_AMOUNT_EXCEEDED"
          ? "The refund is larger than what is left to refund on this payment at the service."
          : "Card payments can be refunded within 180 days of the payment; this one is older. Refund the shopper another way."
      )
    }
    if (!(error instanceof UnknownOutcomeError) || !medusaRefundId) {
      throw toMedusaError(`Refunding payment intent ${session.paymentIntentId}`, error)
    }
    const { items } = await this.client_.refunds.list({ paymentIntentId: session.paymentIntentId, limit: 100 }).catch(() => ({ items: [] as Refund[] }))
    const found = items.find((r) => r.metadata?.medusa_refund_id === medusaRefundId)
    if (found) {
      return found
    }
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The refund got no clear answer and the service lists no such refund yet (${error.code}). Try again: the same idempotency key is used, so it cannot refund twice.`
    )
  }


}
