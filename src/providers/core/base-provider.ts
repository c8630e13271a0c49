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
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, MedusaError, type PaymentSessionStatus } from "@medusajs/framework/utils"
import { toTwd } from "./money"
import { findSession, otherPaidSession, type SessionRecord } from "./sessions"

/** What a provider read from the service about one payment, for the session checks. */
export interface ServiceRecord {
  /** The service's id, as stored in the session data under `idField`. */
  id: string
  /** Human-readable reference for logs. */
  label: string
  sessionId: string | undefined
  amount: number
  paid: boolean
}

/**
 * What the two providers share around a fresh read of the service: every
 * status question is answered from a read checked against the session,
 * notifications are matched to the session they claim, and money paid for a
 * session the store no longer uses is returned.
 *
 * `TSession` is the provider's own session data, `TRecord` what it reads
 * from the service (a transaction, a payment intent).
 */
export abstract class TwPaymentProvider<
  TOptions extends Record<string, unknown>,
  TSession extends { session_id: string },
  TRecord,
> extends AbstractPaymentProvider<TOptions> {
  protected readonly logger_: Logger
  protected readonly cradle_: Record<string, unknown>
  /** Orphan refunds under way, so that concurrent deliveries refund once. */
  readonly #orphanRefunds = new Map<string, Promise<void>>()

  protected constructor(cradle: Record<string, unknown>, options: TOptions) {
    super(cradle, options)
    this.cradle_ = cradle
    this.logger_ = cradle.logger as Logger
  }

  /** The provider's fields of session or payment data; a clear error when they are missing. */
  protected abstract readSession(data: unknown): TSession
  /** A fresh read of the service, refused when it does not belong to the session. */
  protected abstract retrieveChecked(session: TSession): Promise<TRecord>
  /** The explicit status table of the provider. */
  protected abstract sessionStatus(record: TRecord): PaymentSessionStatus
  /** Session data updated with the facts of a fresh read. */
  protected abstract withFacts(data: Record<string, unknown> | undefined, record: TRecord): Record<string, unknown>
  /** The facts of a read the session checks need. */
  protected abstract record(record: TRecord): ServiceRecord
  /** Cancels at the service what can be cancelled of an unpaid payment; returns the updated data. */
  protected abstract releaseUnpaid(data: Record<string, unknown> | undefined, record: TRecord): Promise<Record<string, unknown>>
  /** Returns money paid for a session the store no longer uses; implemented per API. */
  protected abstract refundOrphanNow(record: ServiceRecord, why: string): Promise<void>

  async authorizePayment({ data, context }: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const session = this.readSession(data)
    if (context?.idempotency_key && context.idempotency_key !== session.session_id) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The payment data belongs to another payment session.")
    }
    const record = await this.retrieveChecked(session)
    return { status: this.sessionStatus(record), data: this.withFacts(data, record) }
  }

  async getPaymentStatus({ data }: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const record = await this.retrieveChecked(this.readSession(data))
    return { status: this.sessionStatus(record), data: this.withFacts(data, record) }
  }

  async retrievePayment({ data }: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    return { data: this.withFacts(data, await this.retrieveChecked(this.readSession(data))) }
  }

  /** A paid payment is refunded, never cancelled; an unpaid one is released at the service. */
  async cancelPayment({ data }: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const read = await this.retrieveChecked(this.readSession(data))
    const record = this.record(read)
    if (record.paid) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The ${record.label} is paid; refund it instead of cancelling it.`)
    }
    return { data: await this.releaseUnpaid(data, read) }
  }

  /**
   * The session is going away (replaced, or the cart changed). What is unpaid
   * is released; money already paid for it is returned, never kept.
   */
  async deletePayment({ data }: DeletePaymentInput): Promise<DeletePaymentOutput> {
    let session: TSession
    try {
      session = this.readSession(data)
    } catch {
      return { data }
    }
    const read = await this.retrieveChecked(session)
    const record = this.record(read)
    if (record.paid) {
      await this.refundOrphan(record, `its session ${session.session_id} was deleted`)
      return { data }
    }
    return { data: await this.releaseUnpaid(data, read) }
  }

  protected refundOrphan(record: ServiceRecord, why: string): Promise<void> {
    const running = this.#orphanRefunds.get(record.id)
    if (running) {
      return running
    }
    const work = this.refundOrphanNow(record, why)
      .catch((error: Error) => this.logger_.error(`medusa-payment-tw: could not refund ${record.label} (paid after ${why}): ${error.message}`))
      .finally(() => this.#orphanRefunds.delete(record.id))
    this.#orphanRefunds.set(record.id, work)
    return work
  }

  /**
   * The session a freshly read payment belongs to, or undefined when it must
   * be ignored: no such session, a session that holds another payment, another
   * amount, or a collection already paid another way. Money paid in those
   * cases (other than a wrong amount on the session itself) is refunded.
   */
  protected async matchSession(record: ServiceRecord, idField: string): Promise<SessionRecord | undefined> {
    if (!record.sessionId?.startsWith("payses_")) {
      this.logger_.warn(`medusa-payment-tw: ignored ${record.label}: not created by this store`)
      return undefined
    }
    const session = await findSession(this.cradle_, record.sessionId)
    if (!session) {
      if (record.paid) {
        await this.refundOrphan(record, `its session ${record.sessionId} no longer exists`)
      }
      return undefined
    }
    if ((session.data ?? {})[idField] !== record.id) {
      if (record.paid) {
        await this.refundOrphan(record, `session ${session.id} had moved on to another payment`)
      } else {
        this.logger_.warn(`medusa-payment-tw: ignored ${record.label}: session ${session.id} does not hold it`)
      }
      return undefined
    }
    if (toTwd(session.amount, session.currency_code) !== record.amount) {
      this.logger_.error(`medusa-payment-tw: ${record.label} (${record.amount} TWD) does not match session ${session.id}; nothing done`)
      return undefined
    }
    const other = record.paid ? otherPaidSession(session) : undefined
    if (other) {
      await this.refundOrphan(record, `its payment collection was already paid through session ${other}`)
      return undefined
    }
    return session
  }
}
