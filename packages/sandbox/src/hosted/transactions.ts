import { type HostedContext, JOBS, TIMINGS } from "./context"
import { transactionHid, transactionId } from "./ids"
import type {
  AtmPaymentInfo,
  CvsPaymentInfo,
  HostedTransaction,
  OrderFields,
  PaymentMethod,
  TransactionStatus,
} from "./records"
import type { FailureCode, StoredCard } from "./test-cards"

/**
 * The transaction state machine of spec 3.1. Every status change goes through
 * here; the table below is the only place that says which moves exist. Moves the
 * spec lists: initiated -> charging -> charged/failed, initiated -> charged/failed,
 * charged/claimed -> refunded/refundedPostPayout/refunding, refunding -> refunded,
 * and an unpaid code (charging) -> cancelled. `charged -> claimed` is a sandbox
 * control action (the meaning of `claimed` is not shown); `authorized` never occurs.
 */
const MOVES: Record<TransactionStatus, readonly TransactionStatus[]> = {
  initiated: ["charging", "charged", "failed"],
  charging: ["charged", "failed", "cancelled"],
  charged: ["claimed", "refunded", "refundedPostPayout", "refunding"],
  claimed: ["refunded", "refundedPostPayout", "refunding"],
  authorized: [],
  failed: [],
  refunding: ["refunded"],
  refunded: [],
  refundedPostPayout: [],
  cancelled: [],
}

export class TransitionError extends Error {}

export function moveTo(tx: HostedTransaction, status: TransactionStatus): void {
  if (!MOVES[tx.status].includes(status)) {
    throw new TransitionError(`transaction ${tx.id} cannot go from ${tx.status} to ${status}`)
  }
  tx.status = status
}

export function isPaid(tx: HostedTransaction): boolean {
  return tx.status === "charged" || tx.status === "claimed"
}

export function createTransaction(
  ctx: HostedContext,
  init: OrderFields &
    Pick<HostedTransaction, "merchantId" | "origin" | "action"> &
    Partial<Pick<HostedTransaction, "id" | "expectedPayoutDate" | "subscriptionHid" | "period" | "numberOfPeriods" | "isRetry">>
): HostedTransaction {
  const now = ctx.core.clock.nowMs()
  let hid = transactionHid(now)
  while (ctx.records.transactionByHid(hid)) {
    hid = transactionHid(now)
  }
  const tx: HostedTransaction = {
    ...init,
    seq: ctx.records.nextSeq(),
    id: init.id ?? transactionId(),
    hid,
    status: "initiated",
    createdAt: new Date(now).toISOString(),
  }
  ctx.records.addTransaction(tx)
  return tx
}

/** A code, virtual account or wallet payment is waiting for the consumer. */
export function markCharging(
  ctx: HostedContext,
  tx: HostedTransaction,
  method: PaymentMethod,
  paymentInfo: CvsPaymentInfo | AtmPaymentInfo | undefined,
  expiresAtMs: number
): void {
  moveTo(tx, "charging")
  tx.paymentMethod = method
  tx.paymentInfo = paymentInfo
  ctx.core.scheduler.schedule(JOBS.codeExpiry, expiresAtMs, { transactionId: tx.id })
}

export function markCharged(
  ctx: HostedContext,
  tx: HostedTransaction,
  payment: { method: PaymentMethod; paymentInfo?: HostedTransaction["paymentInfo"]; authCode?: string; card?: StoredCard }
): void {
  moveTo(tx, "charged")
  const now = ctx.core.clock.nowMs()
  tx.paymentMethod = payment.method
  tx.paymentInfo = payment.paymentInfo ?? tx.paymentInfo
  tx.authCode = payment.authCode
  tx.card = payment.card
  tx.paidAt = new Date(now).toISOString()
  ctx.core.scheduler.schedule(JOBS.payout, now + TIMINGS.payoutAfterMs, { transactionId: tx.id })
}

export function markFailed(
  ctx: HostedContext,
  tx: HostedTransaction,
  failure: { failureCode?: FailureCode; message?: string; method?: PaymentMethod; paymentInfo?: string }
): void {
  moveTo(tx, "failed")
  tx.failureCode = failure.failureCode
  tx.message = failure.message
  tx.paymentMethod = failure.method ?? tx.paymentMethod
  tx.paymentInfo = failure.paymentInfo ?? tx.paymentInfo
}

/** Payout: the money reaches the merchant; later card refunds come out of the next payout. */
export function registerPayoutJob(ctx: HostedContext): void {
  ctx.core.scheduler.register(JOBS.payout, (payload) => {
    const tx = ctx.records.transaction(payload.transactionId as string)
    if (tx && !tx.paidOutAt && isPaid(tx)) {
      tx.paidOutAt = ctx.core.clock.now().toISOString()
    }
  })
}
