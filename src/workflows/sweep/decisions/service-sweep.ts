import type { Logger } from "@medusajs/framework/types"
import { untrusted } from "../../../lib/log"
import type { ListedPage, ListedPayment, PaymentApi } from "../../../providers/core/payment-api"
import type { SweepState } from "../../../reconciliation/sweep-cursors"

/** How far back the sweep looks: longer than any notification retry, 3-D Secure wait or processing intent. */
export const SWEEP_WINDOW_MS = 48 * 3_600_000
/** At most this many handled payments are remembered (the oldest are forgotten first). */
const MAX_HANDLED = 10_000
/** Session statuses in which the store holds the payment. */
const SETTLED = new Set(["authorized", "captured"])

/** What the walk of the service's list needs from the store, so that it runs (and is tested) without Medusa. */
export interface SweepListing {
  api: Pick<PaymentApi, "idField" | "listPayments">
  /** The store's sessions among these ids (those that exist). */
  sessions(ids: string[]): Promise<Array<{ id: string; status: string; data: Record<string, unknown> }>>
  /** Waits between two requests to the service (the provider's `requestsPerSecond`). */
  pause(): Promise<void>
  logger: Pick<Logger, "warn">
}

/** What handing the found payments to the pipeline needs. */
export interface SweepRunner {
  /** Runs the pipeline for one payment (of the store's session `sessionId`); true when it changed something. */
  process(serviceId: string, sessionId: string): Promise<boolean>
  pause(): Promise<void>
  logger: Pick<Logger, "warn">
}

export interface SweepOptions {
  /** Requests to the service in this run: list pages plus pipeline runs (the provider's `maxPerRun`). */
  budget: number
  now: number
  /** Payments the store's own walk already ran in this job run. */
  skip?: ReadonlySet<string>
  /** Names the provider in log lines. */
  label: string
}

/**
 * Where a payment that can still change was listed. `seq` orders the marks
 * as the walk met them, so that of two payments created at the same time
 * the first one met wins, however the marks are combined later.
 */
interface Mark {
  createdAt: number
  at: string | undefined
  seq: number
}

/** A payment the store does not hold, to hand to the pipeline. */
export interface DuePayment {
  serviceId: string
  sessionId: string
  label: string
  createdAt: number
  /** The position of its page. */
  at: string | undefined
  /** Its place in the walk, should its run fail (see `Mark`). */
  seq: number
}

/** What one walk of the service's list found, before anything is run: plain data, as a workflow step returns it. */
export interface SweepPlan {
  now: number
  /** Payments already run and still inside the window. */
  handled: Record<string, number>
  /** In the order they were listed; each costs one request of the budget. */
  due: DuePayment[]
  /** List requests made. */
  pages: number
  /** The walk reached the end of the list (false: the budget ran out first, or the service failed). */
  complete: boolean
  oldestOpen?: Mark
  newest?: Mark
  /** The position of the last page read. */
  lastAt?: string
  /** Where the next run starts when the walk did not complete. */
  resume?: string
}

/** How one due payment's run went. */
export interface SweptRun {
  ok: boolean
  changed: boolean
}

export interface SweepOutcome {
  state: SweepState
  pages: number
  /** Payments run through the pipeline. */
  processed: number
  /** Those whose run changed something. */
  changed: number
  failed: number
  complete: boolean
}

const earlier = (a: Mark, b: Mark | undefined) => !b || a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.seq < b.seq)

/**
 * The service side of reconciliation, first half: which payments to run.
 * The store's walk reads only the sessions the store still has; money paid
 * for a session the shopper replaced or deleted (a restarted checkout), whose
 * notification was lost, is found only in the service's own list. This walks
 * that list from where the last run left it and picks every paid payment
 * whose session does not hold it, within the budget of requests the runs
 * will spend too. Subscription period charges appear in the same list; the
 * runner hands those to the subscription workflow.
 */
export async function planSweep(state: SweepState, deps: SweepListing, options: SweepOptions): Promise<SweepPlan> {
  const { api } = deps
  const { budget, now, label } = options
  const since = now - SWEEP_WINDOW_MS
  const handled = prune(state.handled, now)
  const seen = new Set<string>()
  const due: DuePayment[] = []
  let requests = 0
  let pages = 0
  let seq = 0
  let oldestOpen: Mark | undefined
  let newest: Mark | undefined
  let position = state.position
  let last: ListedPage | undefined
  let resume: string | undefined
  let complete = false

  const request = async () => {
    if (requests > 0) {
      await deps.pause()
    }
    requests += 1
  }
  const pin = (payment: ListedPayment, at: string | undefined) => {
    const mark = { createdAt: payment.createdAt, at, seq: seq++ }
    if (earlier(mark, oldestOpen)) {
      oldestOpen = mark
    }
  }

  walk: for (;;) {
    if (requests >= budget) {
      resume = position
      break
    }
    await request()
    pages += 1
    let page: ListedPage
    try {
      page = await api.listPayments(position, since, now)
    } catch (error) {
      deps.logger.warn(`medusa-payment-tw: listing ${label} payments failed: ${untrusted((error as Error).message, 300)}`)
      // A position the service refuses (an expired page marker) is dropped; any other failure keeps it for the next run.
      resume = position !== undefined && requests === 1 && /marker|page/i.test((error as Error).message) ? undefined : position
      break
    }
    last = page
    const candidates: ListedPayment[] = []
    for (const payment of page.payments) {
      const id = payment.observation.serviceId
      if (seen.has(id) || payment.createdAt < since) {
        continue
      }
      seen.add(id)
      if (!newest || payment.createdAt >= newest.createdAt) {
        newest = { createdAt: payment.createdAt, at: page.at, seq: 0 }
      }
      if (payment.open) {
        pin(payment, page.at)
      }
      // Another system of the merchant may use the same account: only this store's sessions are its business.
      if (payment.holdsMoney && payment.observation.sessionId?.startsWith("payses_") && !(id in handled) && !options.skip?.has(id)) {
        candidates.push(payment)
      }
    }

    const held = candidates.length ? await deps.sessions(candidates.map((c) => c.observation.sessionId!)) : []
    const byId = new Map(held.map((s) => [s.id, s]))
    for (const payment of candidates) {
      const id = payment.observation.serviceId
      const session = byId.get(payment.observation.sessionId!)
      if (session && session.data[api.idField] === id && SETTLED.has(session.status)) {
        continue
      }
      if (requests >= budget) {
        // Read this page again next run: it still holds money nobody looked at.
        pin(payment, page.at)
        resume = page.at
        break walk
      }
      // The run's request is counted now: what a run finds never changes which page is read next.
      await request()
      due.push({ serviceId: id, sessionId: payment.observation.sessionId!, label: payment.observation.label, createdAt: payment.createdAt, at: page.at, seq: seq++ })
    }

    if (page.next === undefined) {
      complete = true
      break
    }
    position = page.next
  }
  return { now, handled, due, pages, complete, oldestOpen, newest, lastAt: last?.at, resume }
}

/** Second half: hands each due payment to the pipeline, one request apart; a failed run is noted, not thrown. */
export async function runSweep(due: DuePayment[], deps: SweepRunner): Promise<SweptRun[]> {
  const runs: SweptRun[] = []
  for (const payment of due) {
    // A due payment was found on a page read before it: every run follows a request.
    await deps.pause()
    try {
      runs.push({ ok: true, changed: await deps.process(payment.serviceId, payment.sessionId) })
    } catch (error) {
      runs.push({ ok: false, changed: false })
      deps.logger.warn(`medusa-payment-tw: sweeping ${payment.label} failed: ${untrusted((error as Error).message, 300)}`)
    }
  }
  return runs
}

/**
 * Where the next run starts: at the page of the oldest payment that can
 * still change (or whose run failed), else at the page of the newest one,
 * so each run reads what is new plus what is unsettled, within 48 hours.
 */
export function concludeSweep(plan: SweepPlan, runs: SweptRun[]): SweepOutcome {
  const handled = { ...plan.handled }
  let oldestOpen = plan.oldestOpen
  let processed = 0
  let changed = 0
  let failed = 0
  plan.due.forEach((payment, index) => {
    const run = runs[index]
    if (run?.ok) {
      processed += 1
      changed += run.changed ? 1 : 0
      handled[payment.serviceId] = payment.createdAt + SWEEP_WINDOW_MS
    } else {
      failed += 1
      if (earlier(payment, oldestOpen)) {
        oldestOpen = { createdAt: payment.createdAt, at: payment.at, seq: payment.seq }
      }
    }
  })
  // Behind its budget, the sweep moves on: what it leaves behind open still has its session in the store's walk.
  const next = plan.complete ? ((oldestOpen ?? plan.newest)?.at ?? plan.lastAt) : plan.resume
  return { state: { position: next, handled: trim(handled) }, pages: plan.pages, processed, changed, failed, complete: plan.complete }
}

function prune(handled: Record<string, number>, now: number): Record<string, number> {
  return Object.fromEntries(Object.entries(handled).filter(([, until]) => until > now))
}

function trim(handled: Record<string, number>): Record<string, number> {
  const entries = Object.entries(handled)
  return entries.length <= MAX_HANDLED ? handled : Object.fromEntries(entries.sort((a, b) => b[1] - a[1]).slice(0, MAX_HANDLED))
}
