import type { SandboxCore } from "../context"
import type { Persistable } from "../state"
import { type CardToken, isExpired } from "./card-tokens"
import { JOBS, TIMINGS } from "./context"
import { newId } from "./ids"
import { type Authorisation, type PaymentFailureCode, testCardFor } from "./test-cards"

/**
 * Payment intents and their state machine (spec 3.1):
 *
 *   created / requiresPaymentMethod --confirm--> succeeded | failed | processing | requiresAction
 *   requiresAction --3DS passed--> what the card's authorisation gives
 *   requiresAction --3DS failed--> failed (3DS_FAILED)
 *   requiresAction --3DS cancelled / timed out--> requiresPaymentMethod (may be confirmed again)
 *   processing --reconciliation (15 min stuck, every 5 min)--> succeeded | failed
 *   any non-final --cancel--> canceled
 *
 * `created` lasts until the first confirmation; `requiresPaymentMethod` is the state after
 * a cancelled or timed-out challenge. `succeeded`, `failed` and `canceled` are final.
 */

export const INTENT_STATUSES = ["created", "requiresPaymentMethod", "requiresAction", "processing", "succeeded", "failed", "canceled"] as const
export type IntentStatus = (typeof INTENT_STATUSES)[number]
export type FinalStatus = "succeeded" | "failed" | "canceled"

export function isFinal(status: IntentStatus): status is FinalStatus {
  return status === "succeeded" || status === "failed" || status === "canceled"
}

export type ThreeDsCode = "3DS_FAILED" | "3DS_CANCELED" | "3DS_TIMEOUT"
export type ThreeDsOutcome = "success" | "failure" | "cancel" | "timeout"

export const FAILURE_MESSAGES: Record<PaymentFailureCode | ThreeDsCode, string> = {
  CARD_DECLINED: "The card was declined by its issuer",
  CARD_NOT_SUPPORTED: "This card type is not supported for this merchant",
  CARD_INSUFFICIENT_FUNDS: "The card's credit limit is insufficient",
  CARD_EXPIRED: "The card has expired",
  CARD_INVALID_NUMBER: "The card number is invalid",
  CARD_INVALID_CVV: "The security code is wrong",
  CARD_RISK_DECLINED: "The payment was declined by risk control",
  "3DS_FAILED": "3-D Secure verification failed",
  "3DS_CANCELED": "3-D Secure verification was cancelled by the payer",
  "3DS_TIMEOUT": "3-D Secure verification timed out",
}

export interface Challenge {
  id: string
  startedAt: number
  expiresAt: number
  /** The checkout page's origin as the frame reported it; the challenge page answers only to it. */
  checkoutOrigin: string | null
  /** Kept after the end, so a late look at the challenge page still closes the SDK's overlay. */
  endedAt: number | null
  outcome: ThreeDsOutcome | null
}

export interface PaymentIntentRecord {
  id: string
  merchantId: string
  clientSecret: string
  status: IntentStatus
  amount: number
  currency: "TWD"
  orderId: string
  returnUrl: string
  description: string | null
  metadata: Record<string, string>
  require3ds: boolean
  lastPaymentError: { code: PaymentFailureCode | ThreeDsCode; message: string } | null
  /** Sandbox ms. */
  createdAt: number
  seq: number
  succeededAt: number | null
  canceledAt: number | null
  processingSince: number | null
  card: { brand: string; last4: string; testCard: string | null } | null
  /** What the acquirer answers once the pending challenge passes or the processing payment settles. */
  pending: Authorisation | null
  challenge: Challenge | null
}

export interface CreateIntentInput {
  amount: number
  orderId: string
  returnUrl: string
  description: string | null
  metadata: Record<string, string>
  require3ds: boolean
}

export type IntentEventType =
  | "payment_intent.created"
  | "payment_intent.requires_action"
  | "payment_intent.succeeded"
  | "payment_intent.failed"
  | "payment_intent.canceled"

export class PaymentIntents implements Persistable {
  readonly name = "embedded.intents"
  private intents = new Map<string, PaymentIntentRecord>()
  private seq = 0
  /** Set by the wiring: turns a change into a webhook event. */
  publish: (type: IntentEventType, intent: PaymentIntentRecord) => void = () => {}

  constructor(private readonly core: SandboxCore) {
    core.scheduler.register(JOBS.threeDsExpiry, (payload) => {
      const intent = this.intents.get(payload.intentId as string)
      const challenge = intent?.challenge
      if (intent && challenge && intent.status === "requiresAction" && challenge.id === payload.challengeId && challenge.endedAt === null) {
        this.finishChallenge(intent, "timeout")
      }
    })
    core.scheduler.register(JOBS.reconcile, () => this.reconcile())
  }

  private now(): number {
    return this.core.clock.nowMs()
  }

  create(merchantId: string, input: CreateIntentInput): PaymentIntentRecord {
    const id = newId.paymentIntent()
    const intent: PaymentIntentRecord = {
      id,
      merchantId,
      clientSecret: newId.clientSecret(id),
      status: "created",
      currency: "TWD",
      ...input,
      lastPaymentError: null,
      createdAt: this.now(),
      seq: ++this.seq,
      succeededAt: null,
      canceledAt: null,
      processingSince: null,
      card: null,
      pending: null,
      challenge: null,
    }
    this.intents.set(id, intent)
    this.publish("payment_intent.created", intent)
    return intent
  }

  get(id: string): PaymentIntentRecord | undefined {
    return this.intents.get(id)
  }

  /** The merchant's intent; another merchant's is as absent as a missing one (spec 7). */
  of(merchantId: string, id: string): PaymentIntentRecord | undefined {
    const intent = this.intents.get(id)
    return intent?.merchantId === merchantId ? intent : undefined
  }

  /** Newest first. */
  list(merchantId?: string): PaymentIntentRecord[] {
    return [...this.intents.values()].filter((i) => merchantId === undefined || i.merchantId === merchantId).sort((a, b) => b.seq - a.seq)
  }

  byChallenge(challengeId: string): PaymentIntentRecord | undefined {
    return [...this.intents.values()].find((i) => i.challenge?.id === challengeId)
  }

  /** A confirmation with a card (the caller has checked that the status allows it). */
  confirm(intent: PaymentIntentRecord, token: CardToken, checkoutOrigin: string | null): void {
    const card = testCardFor(token.testCard ?? "")
    intent.card = { brand: token.brand, last4: token.last4, testCard: token.testCard }
    intent.lastPaymentError = null
    if (!token.luhnValid) {
      this.fail(intent, "CARD_INVALID_NUMBER")
      return
    }
    if (isExpired(token, this.now())) {
      this.fail(intent, "CARD_EXPIRED")
      return
    }
    if (card.threeDs || intent.require3ds) {
      const now = this.now()
      intent.status = "requiresAction"
      intent.pending = card.authorisation
      intent.challenge = { id: newId.challenge(), startedAt: now, expiresAt: now + TIMINGS.threeDsExpiryMs, checkoutOrigin, endedAt: null, outcome: null }
      this.core.scheduler.schedule(JOBS.threeDsExpiry, intent.challenge.expiresAt, { intentId: intent.id, challengeId: intent.challenge.id })
      this.publish("payment_intent.requires_action", intent)
      return
    }
    this.authorise(intent, card.authorisation)
  }

  /** The end of a pending challenge: from the challenge page, `/v1/3ds/simulate`, or its expiry. */
  finishChallenge(intent: PaymentIntentRecord, outcome: ThreeDsOutcome): void {
    const challenge = intent.challenge
    if (challenge) {
      challenge.endedAt = this.now()
      challenge.outcome = outcome
      this.core.scheduler.cancel(JOBS.threeDsExpiry, (p) => p.challengeId === challenge.id)
    }
    switch (outcome) {
      case "success":
        this.authorise(intent, intent.pending ?? { kind: "succeeded" })
        return
      case "failure":
        this.fail(intent, "3DS_FAILED")
        return
      case "cancel":
      case "timeout": {
        const code = outcome === "cancel" ? "3DS_CANCELED" : "3DS_TIMEOUT"
        intent.status = "requiresPaymentMethod"
        intent.pending = null
        intent.lastPaymentError = { code, message: FAILURE_MESSAGES[code] }
        return
      }
    }
  }

  cancel(intent: PaymentIntentRecord): void {
    const challenge = intent.challenge
    if (challenge && challenge.endedAt === null) {
      challenge.endedAt = this.now()
      this.core.scheduler.cancel(JOBS.threeDsExpiry, (p) => p.challengeId === challenge.id)
    }
    intent.status = "canceled"
    intent.canceledAt = this.now()
    intent.pending = null
    intent.processingSince = null
    this.publish("payment_intent.canceled", intent)
  }

  /** Settles a processing payment now: as its card says, or as the caller forces. */
  settle(intent: PaymentIntentRecord, forced?: { kind: "succeeded" } | { kind: "failed"; code: PaymentFailureCode }): void {
    const pending = intent.pending
    const outcome = forced ?? (pending?.kind === "processing" ? pending.settlesAs : { kind: "succeeded" as const })
    intent.processingSince = null
    this.authorise(intent, outcome)
  }

  private authorise(intent: PaymentIntentRecord, authorisation: Authorisation): void {
    switch (authorisation.kind) {
      case "succeeded":
        intent.status = "succeeded"
        intent.succeededAt = this.now()
        intent.pending = null
        intent.lastPaymentError = null
        this.publish("payment_intent.succeeded", intent)
        return
      case "failed":
        this.fail(intent, authorisation.code)
        return
      case "processing": {
        const now = this.now()
        intent.status = "processing"
        intent.pending = authorisation
        intent.processingSince = now
        // The first whole 5-minute mark at which the payment has been stuck 15 minutes.
        const at = Math.ceil((now + TIMINGS.processingStuckMs) / TIMINGS.reconcileEveryMs) * TIMINGS.reconcileEveryMs
        this.core.scheduler.cancel(JOBS.reconcile, (p) => p.at === at)
        this.core.scheduler.schedule(JOBS.reconcile, at, { at })
        return
      }
    }
  }

  private fail(intent: PaymentIntentRecord, code: PaymentFailureCode | ThreeDsCode): void {
    intent.status = "failed"
    intent.pending = null
    intent.lastPaymentError = { code, message: FAILURE_MESSAGES[code] }
    this.publish("payment_intent.failed", intent)
  }

  /** One reconciliation run: every payment processing for 15 minutes or more is settled. */
  private reconcile(): void {
    const now = this.now()
    for (const intent of this.list().reverse()) {
      if (intent.status === "processing" && intent.processingSince !== null && now - intent.processingSince >= TIMINGS.processingStuckMs) {
        this.settle(intent)
      }
    }
  }

  dump(): unknown {
    return { seq: this.seq, intents: [...this.intents.values()] }
  }

  load(data: unknown): void {
    const saved = data as { seq?: number; intents?: PaymentIntentRecord[] }
    this.seq = saved.seq ?? 0
    this.intents = new Map((saved.intents ?? []).map((i) => [i.id, i]))
  }

  reset(): void {
    this.intents = new Map()
  }
}
