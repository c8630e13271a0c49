import type { SandboxCore } from "../context"
import type { Persistable } from "../state"
import { JOBS, TIMINGS } from "./context"
import { newId } from "./ids"
import type { PaymentIntentRecord } from "./intents"
import { testCardFor } from "./test-cards"

/**
 * Refunds (spec 2.2, 3.2; states and transitions are the sandbox's choice):
 *   pending -> succeeded | failed, or created directly as succeeded or failed.
 * The card paid with decides: most refunds succeed at once (events `refund.created`,
 * `refund.succeeded`); the "pending" test card keeps them pending for a minute of sandbox
 * time (so `REFUND_IN_PROGRESS` can be reached); the "failing" test card gives a 200 whose
 * refund is `failed` with `failureCode: "REFUND_DECLINED"` (`refund.created`, `refund.failed`).
 * A failed refund does not count against `amountRefundable`.
 */

export const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const
export type RefundReason = (typeof REFUND_REASONS)[number]
export type RefundStatus = "pending" | "succeeded" | "failed"
export const REFUND_DECLINED = "REFUND_DECLINED"

export interface RefundRecord {
  id: string
  merchantId: string
  paymentIntentId: string
  amount: number
  status: RefundStatus
  reason: RefundReason
  metadata: Record<string, string>
  failureCode: string | null
  createdAt: number
  seq: number
  settledAt: number | null
}

export type RefundEventType = "refund.created" | "refund.succeeded" | "refund.failed"

export class Refunds implements Persistable {
  readonly name = "embedded.refunds"
  private refunds = new Map<string, RefundRecord>()
  private seq = 0
  publish: (type: RefundEventType, refund: RefundRecord) => void = () => {}

  constructor(private readonly core: SandboxCore) {
    core.scheduler.register(JOBS.refundSettle, (payload) => {
      const refund = this.refunds.get(payload.refundId as string)
      if (refund?.status === "pending") {
        this.settle(refund, "succeeded")
      }
    })
  }

  /** What can still be refunded: the amount of a succeeded intent less its refunds that did not fail. */
  amountRefundable(intent: PaymentIntentRecord): number {
    if (intent.status !== "succeeded") {
      return 0
    }
    return intent.amount - this.ofIntent(intent.id).filter((r) => r.status !== "failed").reduce((sum, r) => sum + r.amount, 0)
  }

  ofIntent(intentId: string): RefundRecord[] {
    return this.list().filter((r) => r.paymentIntentId === intentId)
  }

  /** Newest first. */
  list(merchantId?: string): RefundRecord[] {
    return [...this.refunds.values()].filter((r) => merchantId === undefined || r.merchantId === merchantId).sort((a, b) => b.seq - a.seq)
  }

  of(merchantId: string, id: string): RefundRecord | undefined {
    const refund = this.refunds.get(id)
    return refund?.merchantId === merchantId ? refund : undefined
  }

  get(id: string): RefundRecord | undefined {
    return this.refunds.get(id)
  }

  /** Creates a refund the caller has validated; the paying card decides its course. */
  create(intent: PaymentIntentRecord, input: { amount: number; reason: RefundReason; metadata: Record<string, string> }): RefundRecord {
    const now = this.core.clock.nowMs()
    const refund: RefundRecord = {
      id: newId.refund(),
      merchantId: intent.merchantId,
      paymentIntentId: intent.id,
      ...input,
      status: "pending",
      failureCode: null,
      createdAt: now,
      seq: ++this.seq,
      settledAt: null,
    }
    this.refunds.set(refund.id, refund)
    const behaviour = testCardFor(intent.card?.testCard ?? "").refunds
    if (behaviour === "succeeds") {
      refund.status = "succeeded"
      refund.settledAt = now
    } else if (behaviour === "fails") {
      refund.status = "failed"
      refund.failureCode = REFUND_DECLINED
      refund.settledAt = now
    }
    this.publish("refund.created", refund)
    if (refund.status === "succeeded") {
      this.publish("refund.succeeded", refund)
    } else if (refund.status === "failed") {
      this.publish("refund.failed", refund)
    } else {
      this.core.scheduler.schedule(JOBS.refundSettle, now + TIMINGS.pendingRefundMs, { refundId: refund.id })
    }
    return refund
  }

  /** Ends a pending refund (its job, or the control API). */
  settle(refund: RefundRecord, outcome: "succeeded" | "failed"): void {
    this.core.scheduler.cancel(JOBS.refundSettle, (p) => p.refundId === refund.id)
    refund.status = outcome
    refund.settledAt = this.core.clock.nowMs()
    refund.failureCode = outcome === "failed" ? REFUND_DECLINED : null
    this.publish(outcome === "succeeded" ? "refund.succeeded" : "refund.failed", refund)
  }

  dump(): unknown {
    return { seq: this.seq, refunds: [...this.refunds.values()] }
  }

  load(data: unknown): void {
    const saved = data as { seq?: number; refunds?: RefundRecord[] }
    this.seq = saved.seq ?? 0
    this.refunds = new Map((saved.refunds ?? []).map((r) => [r.id, r]))
  }

  reset(): void {
    this.refunds = new Map()
  }
}
