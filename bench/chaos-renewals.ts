/**
 * Renewals in the chaos run: once every shopper is done (so no cvs code or
 * page of theirs runs out with the month), the sandbox clock moves to the
 * live subscriptions' next charge, so each charges one period at the same
 * 09:00 Taipei tick and its renewal has to reach the store through the same
 * faults. The harness's stores run the subscription reconciliation every
 * minute (bench/store.ts): the run waits for one such tick after the move,
 * so that console cancels whose notification was lost are read too.
 */
import { serviceSubscriptions } from "./sandbox-records"
import type { BenchStore } from "./store"

const SERVICE_LIVE = new Set(["active", "trialing", "retrying"])
const JOB_PERIOD_MS = 60_000
/** The job reads each live subscription at the provider's reconciliation rate: time for a run's few to be done. */
const TICK_RUN_MS = 45_000
/** The job's line when it read at least one subscription (src/jobs/reconcile-tw-subscriptions.ts). */
export const SUBSCRIPTION_JOB_LINE = /reconciled \d+ \S+ subscription\(s\)/

export interface RenewalMove {
  /** Service subscriptions live at the move, each charging its second period. */
  live: number
  dueAt?: string
  /** Distinct due times (1: one tick for all). */
  ticks: number
  /** When the clock move was answered (the charges and their first deliveries done). */
  movedAt?: number
  /** Wall time before which the run does not call itself settled: one subscription reconciliation after the move, plus its run. */
  settleNotBefore: number
  /** Index in the store's log at the move, to find the job's lines after it. */
  logsFrom: number
}

export async function moveClockForRenewals(store: BenchStore, say: (line: string) => void): Promise<RenewalMove> {
  const live = (await serviceSubscriptions(store)).filter((s) => SERVICE_LIVE.has(s.status) && s.nextChargeAt)
  const logsFrom = store.logs.length
  if (!live.length) {
    return { live: 0, ticks: 0, settleNotBefore: 0, logsFrom }
  }
  const due = [...new Set(live.map((s) => s.nextChargeAt!))].sort()
  const dueAt = due[due.length - 1]
  say(`renewals: sandbox clock to ${dueAt}: ${live.length} live subscription(s) charge a period (${due.length === 1 ? "one 09:00 Taipei tick" : `${due.length} ticks`})`)
  await store.control("PUT", "/clock", { now: dueAt })
  const movedAt = Date.now()
  const settleNotBefore = Math.ceil((movedAt + 1) / JOB_PERIOD_MS) * JOB_PERIOD_MS + TICK_RUN_MS
  return { live: live.length, dueAt, ticks: due.length, movedAt, settleNotBefore, logsFrom }
}

/** Runs of the subscription reconciliation since the move that read something. */
export const subscriptionJobRuns = (store: BenchStore, move: RenewalMove) => store.logs.slice(move.logsFrom).filter((line) => SUBSCRIPTION_JOB_LINE.test(line)).length
