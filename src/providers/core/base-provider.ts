import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  Logger,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PaymentApi, PaymentObservation } from "./payment-api"
import { SHOPPER_ERROR } from "./shopper-error-codes"

/**
 * What the two providers share around a fresh read of the service: every
 * status question is answered from a read checked against the session (or
 * from the event pipeline's sealed read of a moment ago), and money paid for
 * a session the store no longer uses is returned. Deliveries are handled by
 * the plugin's event pipeline, not here (see `getWebhookActionAndData`).
 *
 * `TSession` is the provider's own session data, `TRecord` what it reads
 * from the service (a transaction, a payment intent).
 */
export abstract class TwPaymentProvider<
  TOptions extends Record<string, unknown>,
  TSession extends { session_id: string; amount: number },
  TRecord,
> extends AbstractPaymentProvider<TOptions> {
  protected readonly logger_: Logger
  /** Orphan refunds under way, so that concurrent calls refund once. */
  readonly #orphanRefunds = new Map<string, Promise<void>>()

  protected constructor(cradle: Record<string, unknown>, options: TOptions) {
    super(cradle, options)
    this.logger_ = cradle.logger as Logger
  }

  /** The API this provider speaks, shared with the event pipeline. */
  protected abstract readonly api_: PaymentApi

  /** The provider's fields of session or payment data; a clear error when they are missing. */
  protected abstract readSession(data: unknown): TSession
  /** A fresh read of the service, refused when it does not belong to the session. */
  protected abstract retrieveChecked(session: TSession): Promise<TRecord>
  /** The explicit status table of the provider. */
  protected abstract sessionStatus(status: string): PaymentSessionStatus
  /** What a fresh read means for the store. */
  protected abstract observe(record: TRecord): PaymentObservation
  /**
   * Money of a paid read that went back already (the store could not place the order): such a payment
   * never authorizes. Only for providers whose status stays paid after a refund (embedded intents).
   */
  protected moneyReturned(_record: TRecord): boolean {
    return false
  }
  /** Cancels at the service what can be cancelled of an unpaid payment; returns the updated data. */
  protected abstract releaseUnpaid(data: Record<string, unknown> | undefined, record: TRecord): Promise<Record<string, unknown>>

  /**
   * Answers from the event pipeline's sealed read when it is fresh and about
   * this very session, payment and amount (the completion it triggered is
   * calling); otherwise reads the service.
   */
  async authorizePayment({ data, context }: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const session = this.readSession(data)
    if (context?.idempotency_key && context.idempotency_key !== session.session_id) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The payment data belongs to another payment session.", SHOPPER_ERROR.payment_session_mismatch)
    }
    const attested = this.api_.attestor.open(data?.attestation, {
      sessionId: session.session_id,
      serviceId: String((session as Record<string, unknown>)[this.api_.idField]),
      amount: session.amount,
    })
    // A seal settles only a paid payment: an earlier state may have moved on since it was read
    // (a shopper passing 3-D Secure after a webhook recorded the challenge), so that is read again.
    const sealed = attested && this.sessionStatus(attested)
    if (sealed === "authorized" || sealed === "captured") {
      return { status: sealed, data }
    }
    const record = await this.retrieveChecked(session)
    if (this.moneyReturned(record)) {
      return { status: PaymentSessionStatus.CANCELED, data: this.withFacts(data, record) }
    }
    return { status: this.sessionStatus(this.observe(record).status), data: this.withFacts(data, record) }
  }

  async getPaymentStatus({ data }: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const record = await this.retrieveChecked(this.readSession(data))
    return { status: this.sessionStatus(this.observe(record).status), data: this.withFacts(data, record) }
  }

  async retrievePayment({ data }: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: this.withFacts(data, await this.retrieveChecked(this.readSession(data))) }
  }

  /**
   * A paid payment is refunded, never cancelled; an unpaid one is released at the service. Without a payment
   * to name (`idempotency_key`), the call is the payment module's cleanup after an authorization that could
   * not record its payment, most often because another authorization of the same session recorded it first.
   */
  async cancelPayment({ data, context }: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const read = await this.retrieveChecked(this.readSession(data))
    const observation = this.observe(read)
    if (observation.paid && !context?.idempotency_key) {
      throw new MedusaError(
        MedusaError.Types.CONFLICT,
        `The ${observation.label} is paid, and its payment is being recorded by another authorization of this session: read the session's payment instead of authorizing again.`,
        SHOPPER_ERROR.payment_pending
      )
    }
    if (observation.paid) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The ${observation.label} is paid; refund it instead of cancelling it.`)
    }
    return { data: await this.releaseUnpaid(data, read) }
  }

  /**
   * The session is going away (replaced, or the cart changed). What is unpaid
   * is released; money already paid for it is returned, never kept. A session
   * awaiting its money (a code issued, an intent processing) is refused: its
   * order, or the order its cart becomes, must stay payable until the code
   * expires. Every path that deletes a session (core's session and cart
   * workflows, an admin action, a script) comes through here.
   */
  async deletePayment({ data }: DeletePaymentInput): Promise<DeletePaymentOutput> {
    let session: TSession
    try {
      session = this.readSession(data)
    } catch {
      return { data }
    }
    const read = await this.retrieveChecked(session)
    const observation = this.observe(read)
    if (!observation.paid && observation.action === PaymentActions.PENDING_AUTHORIZATION) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The ${observation.label} awaits its payment (a code was issued or the payment is processing): its session stays until it is paid or expires.`,
        SHOPPER_ERROR.payment_pending
      )
    }
    if (observation.paid) {
      await this.refundOrphan(observation, `its session ${session.session_id} was deleted`)
      return { data }
    }
    return { data: await this.releaseUnpaid(data, read) }
  }

  /** Session data updated with the facts of a fresh read. */
  protected withFacts(data: Record<string, unknown> | undefined, record: TRecord): Record<string, unknown> {
    return { ...data, ...this.observe(record).facts }
  }

  /**
   * Deliveries are handled once, by the plugin's event pipeline (its webhook
   * subscriber reads the service and runs the `process-tw-payment` workflow).
   * Core's webhook subscriber would process the same delivery a second time,
   * so it is told there is nothing for it to do.
   */
  async getWebhookActionAndData(): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  protected refundOrphan(observation: PaymentObservation, why: string): Promise<void> {
    const running = this.#orphanRefunds.get(observation.serviceId)
    if (running) {
      return running
    }
    // A remittance it cannot make here (no module of the plugin in the payment module's container): the
    // pipeline's read of the payment, whose session is gone, records it for the merchant.
    const work = this.api_
      .refundOrphan(observation, why)
      .then(() => undefined)
      .catch((error: Error) => this.logger_.error(`medusa-payment-tw: could not refund ${observation.label} (paid after ${why}): ${error.message}`))
      .finally(() => this.#orphanRefunds.delete(observation.serviceId))
    this.#orphanRefunds.set(observation.serviceId, work)
    return work
  }
}
