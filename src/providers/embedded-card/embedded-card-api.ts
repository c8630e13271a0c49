import type { Logger, ProviderWebhookPayload } from "@medusajs/framework/types"
import { constructEvent, EmbeddedCardClient, type PaymentIntent, type Refund, SIGNATURE_HEADER, type WebhookEvent } from "../../lib/embedded"
import { NotFoundError } from "../../lib/http"
import { untrusted } from "../../lib/log"
import { Attestor } from "../core/attestation"
import { embeddedFailureCode } from "../core/shopper-error-codes"
import type { DeliveryReading, ListedPage, OrphanRefund, PaymentApi, PaymentObservation, UnsettledSession } from "../core/payment-api"
import type { ResolvedEmbeddedCardOptions } from "./options"
import { type EmbeddedSessionData, readSessionData } from "./embedded-card-session-data"
import { WEBHOOK_ACTION } from "./embedded-card-status-map"

/** How long an intent nobody reported on is worth reading again. */
const OPEN_INTENT_MS = 60 * 60_000
/** The largest page the list allows (spec 8). */
const LIST_LIMIT = 100
/** A session last read in one of these has nothing more to learn (`succeeded` still waits for its order). */
const CLOSED: ReadonlySet<string> = new Set(["failed", "canceled"])
/** Statuses in which the shopper can still pay. */
const AWAITING_CARD: ReadonlySet<string> = new Set(["created", "requiresPaymentMethod", "requiresAction"])

/**
 * The embedded-card API as the provider and the event pipeline use it: the
 * client, signed webhooks (verified over the raw bytes: every `v1`, each
 * configured secret, 300 s), and what one fresh read of an intent means.
 */
export class EmbeddedCardApi implements PaymentApi {
  readonly idField = "paymentIntentId"
  readonly client: EmbeddedCardClient
  readonly attestor: Attestor

  constructor(
    readonly options: ResolvedEmbeddedCardOptions,
    private readonly logger: Logger
  ) {
    this.client = new EmbeddedCardClient({ secretKey: options.secretKey, baseUrl: options.apiBaseUrl, timeouts: options.timeouts, logger })
    this.attestor = new Attestor(options.secretKey)
  }

  /** The publishable key names the account and is public. */
  get account(): string {
    return `${this.options.apiBaseUrl}#${this.options.publishableKey}`
  }

  /** A webhook is refused only for its signature: none at all, or one no configured secret made. */
  readDelivery(payload: ProviderWebhookPayload["payload"]): DeliveryReading {
    const raw = payload.rawData
    const header = payload.headers?.[SIGNATURE_HEADER.toLowerCase()]
    let event: WebhookEvent
    try {
      event = constructEvent(typeof raw === "string" ? Buffer.from(raw) : raw, typeof header === "string" ? header : undefined, this.options.webhookSecrets)
    } catch (error) {
      this.logger.warn(`embedded-card: rejected a webhook: ${untrusted((error as Error).message, 300)}`)
      return { refusal: typeof header === "string" && header ? "signature_failed" : "unsigned" }
    }
    // The signed body is a snapshot: the pipeline reads the current state, so a
    // delayed or reordered delivery cannot move the session backwards.
    if (event.type.startsWith("refund.")) {
      const refund = event.data as Refund
      return { delivery: { key: event.id, serviceId: refund.paymentIntentId, refundId: refund.id, signed: true } }
    }
    return { delivery: { key: event.id, serviceId: (event.data as PaymentIntent).id, signed: true } }
  }

  async observe(intentId: string): Promise<PaymentObservation | undefined> {
    let intent: PaymentIntent
    try {
      intent = await this.client.paymentIntents.retrieve(intentId)
    } catch (error) {
      if (error instanceof NotFoundError) {
        return undefined
      }
      throw error
    }
    if (intent.currency.toUpperCase() !== "TWD") {
      this.logger.error(`embedded-card: ignored payment intent ${intent.id} in ${untrusted(intent.currency)}`)
      return undefined
    }
    return this.observation(intent)
  }

  observation(intent: PaymentIntent): PaymentObservation {
    // A refunded intent still reads `succeeded`: what is left to refund tells what was given back.
    const refunded = intent.status === "succeeded" ? intent.amount - intent.amountRefundable : 0
    return {
      serviceId: intent.id,
      label: `payment intent ${intent.id}`,
      sessionId: typeof intent.metadata?.session_id === "string" ? intent.metadata.session_id : undefined,
      amount: intent.amount,
      status: intent.status,
      action: WEBHOOK_ACTION[intent.status],
      paid: intent.status === "succeeded",
      returned: refunded > 0,
      paidAt: intent.status === "succeeded" ? new Date(intent.created * 1000).toISOString() : undefined,
      facts: {
        status: intent.status,
        ...(intent.lastPaymentError ? { lastPaymentError: intent.lastPaymentError.code } : {}),
        // Cleared once the shopper pays after a failed try (a cancelled 3-D Secure leaves the intent payable).
        errorCode: intent.lastPaymentError || intent.status === "failed" ? embeddedFailureCode(intent.lastPaymentError?.code) : undefined,
        // Kept on the session, so that a read taken before the refund is seen as older (see `decide`).
        ...(refunded > 0 ? { refundAmount: refunded } : {}),
      },
    }
  }

  /**
   * Processing and paid intents until they settle; other open intents for an
   * hour, in case the shopper paid in the card form, never came back and the
   * webhook was lost.
   */
  reconcilable({ status, data, createdAt }: UnsettledSession, now: number): boolean {
    const session = data as Partial<EmbeddedSessionData>
    // Money given back leaves the session nothing more to learn, as a final status does.
    if (!session.paymentIntentId || (session.status && CLOSED.has(session.status)) || (session.refundAmount ?? 0) > 0) {
      return false
    }
    return status === "pending_authorization" || session.status === "succeeded" || session.status === "processing" || now - createdAt.getTime() < OPEN_INTENT_MS
  }

  /**
   * One page of `GET /v1/payment-intents` (newest first, 100 a page). The spec
   * gives the list only `createdGte`/`createdLte` (unix seconds), so a
   * position is `"<gte>"` for a run that starts there, or `"<gte>..<lte>"` for
   * the next, older page of the same walk; the second holding the page's
   * oldest intent is read again, and the caller drops the repeats by id.
   */
  async listPayments(position: string | undefined, since: number, now: number): Promise<ListedPage> {
    const floor = Math.floor(since / 1000)
    const match = /^(\d{1,12})(?:\.\.(\d{1,12}))?$/.exec(position ?? "")
    const gte = Math.max(floor, match ? Number(match[1]) : floor)
    const lte = match?.[2] === undefined ? undefined : Number(match[2])
    const page = await this.client.paymentIntents.list({ createdGte: gte, ...(lte === undefined ? {} : { createdLte: lte }), limit: LIST_LIMIT })
    const intents = page.items.filter((intent) => intent.currency.toUpperCase() === "TWD")
    const oldest = page.items.reduce((min, intent) => Math.min(min, intent.created), lte ?? Number.MAX_SAFE_INTEGER)
    let next: string | undefined
    if (page.hasMore && page.items.length) {
      if (oldest === lte) {
        // A whole page created within one second: the list cannot go past it without skipping the rest of that second.
        this.logger.warn(`embedded-card: more than ${LIST_LIMIT} payment intents were created in the second ${oldest}; the sweep skips the rest of it`)
      }
      next = `${gte}..${oldest === lte ? oldest - 1 : oldest}`
    }
    return {
      payments: intents.map((intent) => ({
        observation: this.observation(intent),
        createdAt: intent.created * 1000,
        holdsMoney: intent.status === "succeeded" && intent.amountRefundable > 0,
        open: intent.status === "processing" || (AWAITING_CARD.has(intent.status) && now - intent.created * 1000 < OPEN_INTENT_MS),
      })),
      at: String(page.items.length ? oldest : gte),
      next,
    }
  }

  async refundOrphan(observation: PaymentObservation, why: string): Promise<OrphanRefund> {
    const refund = await this.client.refunds.create(
      { paymentIntentId: observation.serviceId, reason: "duplicate" },
      // One key per intent: however often this runs, the service refunds once.
      { idempotencyKey: `medusa-orphan-${observation.serviceId}` }
    )
    if (refund.status === "failed") {
      throw new Error(`the service declined the refund (${refund.failureCode ?? "no reason given"}); refund it from the service's console`)
    }
    this.logger.warn(`embedded-card: refunded ${refund.amount} TWD of ${observation.label} (${refund.status}): paid after ${why}`)
    return { kind: "refunded" }
  }

  hasRefund(refundId: string, paymentData: Record<string, unknown>): boolean {
    return !!readSessionData(paymentData).refunds?.some((refund) => refund.medusaRefundId === refundId)
  }

  async refundMade(refundId: string, paymentData: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const data = readSessionData(paymentData)
    const { items } = await this.client.refunds.list({ paymentIntentId: data.paymentIntentId, limit: 100 })
    const made = items.find((refund) => refund.metadata?.medusa_refund_id === refundId && refund.status !== "failed")
    return made && { ...paymentData, refunds: [...(data.refunds ?? []), { id: made.id, medusaRefundId: refundId, amount: made.amount, status: made.status }] }
  }

  /** Refunds settle asynchronously: the payment keeps each refund's current status. */
  async refundUpdate(refundId: string, paymentData: Record<string, unknown>): Promise<Record<string, unknown>> {
    const current = await this.client.refunds.retrieve(refundId)
    const data = readSessionData(paymentData)
    const known = data.refunds?.find((r) => r.id === current.id)
    const refunds = [...(data.refunds ?? []).filter((r) => r.id !== current.id), { ...known, id: current.id, amount: current.amount, status: current.status }]
    if (current.status === "failed") {
      this.logger.error(`embedded-card: refund ${current.id} of ${current.amount} TWD on ${current.paymentIntentId} failed at the service; refund the shopper another way`)
    }
    return { ...paymentData, refunds }
  }
}
