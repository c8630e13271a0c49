import type { Logger } from "@medusajs/framework/types"
import { untrusted } from "../lib/log"
import type { ListedPage, ListedPayment, PaymentApi } from "../providers/core/payment-api"
import type { SweepState } from "./sweep-cursors"

/** How far back the sweep looks: longer than any notification retry, 3-D Secure wait or processing intent. */
export const SWEEP_WINDOW_MS = 48 * 3_600_000
/** At most this many handled payments are remembered (the oldest are forgotten first). */
const MAX_HANDLED = 10_000
/** Session statuses in which the store holds the payment. */
const SETTLED = new Set(["authorized", "captured"])

/** What the sweep needs from the store, so that it runs (and is tested) without Medusa. */
export interface SweepDeps {
  api: Pick<PaymentApi, "idField" | "listPayments">
  /** The store's sessions among these ids (those that exist). */
  sessions(ids: string[]): Promise<Array<{ id: string; status: string; data: Record<string, unknown> }>>
  /** Runs the pipeline for one payment (of the store's session `sessionId`); true when it changed something. */
  process(serviceId: string, sessionId: string): Promise<boolean>
  /** Waits between two requests to the service (the provider's `requestsPerSecond`). */
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

export interface SweepOutcome {
  state: SweepState
  pages: number
  /** Payments run through the pipeline. */
  processed: number
  /** Those whose run changed something. */
  changed: number
  failed: number
  /** The walk reached the end of the list (false: the budget ran out first). */
  complete: boolean
}

interface Mark {
  createdAt: number
  at: string | undefined
}

/**
 * The service side of reconciliation. The store's walk reads only the
 * sessions the store still has; money paid for a session the shopper
 * replaced or deleted (a restarted checkout), whose notification was lost,
 * is found only in the service's own list. This walks that list from where
 * the last run left it, and runs every paid payment whose session does not
 * hold it through `process-tw-payment`, which decides (refund the orphan,
 * or complete the live cart) exactly as for a delivery.
 *
 * The next run starts at the page of the oldest payment that can still
 * change (or that failed to process), else at the page of the newest one, so
 * each run reads what is new plus what is unsettled, within 48 hours.
 * Subscription period charges appear in the same list: the job hands those
 * to the subscription workflow (their session is a subscription's checkout).
 */
export async function sweepServicePayments(state: SweepState, deps: SweepDeps, options: SweepOptions): Promise<SweepOutcome> {
  const { api } = deps
  const { budget, now, label } = options
  const since = now - SWEEP_WINDOW_MS
  const handled = prune(state.handled, now)
  const seen = new Set<string>()
  let requests = 0
  let processed = 0
  let changed = 0
  let failed = 0
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
    if (!oldestOpen || payment.createdAt < oldestOpen.createdAt) {
      oldestOpen = { createdAt: payment.createdAt, at }
    }
  }

  walk: for (;;) {
    if (requests >= budget) {
      resume = position
      break
    }
    await request()
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
        newest = { createdAt: payment.createdAt, at: page.at }
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
      await request()
      try {
        changed += (await deps.process(id, payment.observation.sessionId!)) ? 1 : 0
        processed += 1
        handled[id] = payment.createdAt + SWEEP_WINDOW_MS
      } catch (error) {
        failed += 1
        pin(payment, page.at)
        deps.logger.warn(`medusa-payment-tw: sweeping ${payment.observation.label} failed: ${untrusted((error as Error).message, 300)}`)
      }
    }

    if (page.next === undefined) {
      complete = true
      break
    }
    position = page.next
  }

  let next: string | undefined
  if (complete) {
    next = (oldestOpen ?? newest)?.at ?? last?.at
  } else if (last === undefined && requests === 0) {
    next = state.position
  } else {
    // Behind its budget, the sweep moves on: what it leaves behind open still has its session in the store's walk.
    next = resume
  }
  return { state: { position: next, handled: trim(handled) }, pages: requests - processed - failed, processed, changed, failed, complete }
}

function prune(handled: Record<string, number>, now: number): Record<string, number> {
  return Object.fromEntries(Object.entries(handled).filter(([, until]) => until > now))
}

function trim(handled: Record<string, number>): Record<string, number> {
  const entries = Object.entries(handled)
  return entries.length <= MAX_HANDLED ? handled : Object.fromEntries(entries.sort((a, b) => b[1] - a[1]).slice(0, MAX_HANDLED))
}
