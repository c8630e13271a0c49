import type { Logger } from "@medusajs/framework/types"
import type { Subscription, Transaction } from "../lib/hosted"
import { InvalidRequestError, NotFoundError } from "../lib/http"
import { untrusted } from "../lib/log"
import type { HostedCheckoutApi } from "../providers/hosted-checkout/public"

/** The store's row, as far as reading the service needs it. */
export interface SubscriptionRef {
  id: string
  amount: number
  interval_months: number
  periods_total: number | null
  payment_session_id: string | null
  service_subscription_id: string | null
}

export interface ServiceRead {
  /** The S number, known or just verified. */
  hid?: string
  subscription?: Subscription
  /** The checkout's transactions (its `orderId`), of this merchant and checkout only. */
  transactions: Transaction[]
  /**
   * Without an S number, for an ended checkout: every subscription still charging that fits it when
   * several do (checkouts of one plan paid within seconds, every notification lost) and each of the
   * store's checkouts they could belong to has ended too. Which is whose cannot be told; none may go on
   * charging, so each is cancelled.
   */
  strays?: string[]
}

/** `GET /order/{orderId}/transactions` of a checkout session: this merchant's and this checkout's only. */
export async function checkoutTransactions(api: HostedCheckoutApi, sessionId: string | null): Promise<Transaction[]> {
  if (!sessionId) {
    return []
  }
  // A saved card's subscription (token payments) carries no customId: its orderId is the session.
  return (await api.client.transactions.listByOrder(sessionId)).filter((tx) => tx.merchantId === api.options.merchantId && (tx.customId ?? tx.orderId) === sessionId)
}

/** A notification's S number is a hint: it is kept only when the subscription read fits the checkout. */
const STARTED_WITHIN_MS = 15 * 60_000

/**
 * One fresh read of a subscription: the checkout's transactions
 * (`GET /order/{orderId}/transactions`) and the subscription
 * (`GET /subscriptions/{id}`). A monthly checkout's create call does not
 * answer its S number, so the first notification that names one is checked
 * against the read: same amount, interval and number of periods, started
 * when the first period was paid. Service errors are thrown: nothing has
 * changed yet, and the caller retries later.
 */
export async function readService(api: HostedCheckoutApi, ref: SubscriptionRef, hint: string | undefined, logger: Logger): Promise<ServiceRead> {
  const transactions = await checkoutTransactions(api, ref.payment_session_id)
  if (ref.service_subscription_id) {
    return { hid: ref.service_subscription_id, subscription: await api.client.subscriptions.retrieve(ref.service_subscription_id), transactions }
  }
  if (!hint) {
    return { transactions }
  }
  let candidate: Subscription
  try {
    candidate = await api.client.subscriptions.retrieve(hint)
  } catch (error) {
    if (error instanceof InvalidRequestError || error instanceof NotFoundError) {
      logger.warn(`medusa-payment-tw: subscription ${untrusted(hint)} named by a notification is unknown to the service; ignored`)
      return { transactions }
    }
    throw error
  }
  if (!fitsCheckout(candidate, ref, transactions)) {
    logger.warn(`medusa-payment-tw: subscription ${untrusted(hint)} named by a notification does not fit ${ref.id}; ignored`)
    return { transactions }
  }
  return { hid: candidate.id, subscription: candidate, transactions }
}

/**
 * Pages of `GET /subscriptions` read at most when looking for an S number no notification gave. The spec
 * leaves the list's order open (the sandbox's is oldest first), so a new subscription can be on the last
 * page: 100 pages cover 5,000 subscriptions (a money-model run on the production profile found a store
 * with more than the 250 read before never finding one).
 */
const LIST_PAGES = 100
/**
 * Without an id from the service, only a subscription started with the checkout's payment itself fits: the
 * service starts it as period 1 is paid. A few seconds, not a minute: at a busy store a wider window holds
 * several checkouts of one plan, and none of them is then found (chaos N=1000, issue 21).
 */
const LISTED_STARTED_WITHIN_MS = 5_000
/** Only a subscription that can still charge needs finding. */
const STILL_CHARGING = new Set<Subscription["status"]>(["pending", "trialing", "active", "retrying"])

/**
 * For a checkout no notification named (all of them lost), the service's
 * subscriptions still charging that fit it (its amount, interval, number of
 * periods, started within 5 s of its first period's payment) and that no
 * other subscription of the store holds. One is its S number; none, or
 * more than one, is no answer: the next notification of a period names it.
 */
export async function fittingInServiceList(
  api: HostedCheckoutApi,
  ref: SubscriptionRef,
  transactions: Transaction[],
  heldElsewhere: (hid: string) => Promise<boolean>,
  logger: Logger
): Promise<Subscription[]> {
  if (firstPaidAt(transactions) === undefined) {
    return []
  }
  const fitting: Subscription[] = []
  let read = 0
  for await (const candidate of api.client.subscriptions.list()) {
    if (STILL_CHARGING.has(candidate.status) && fitsCheckout(candidate, ref, transactions, LISTED_STARTED_WITHIN_MS) && !(await heldElsewhere(candidate.id))) {
      fitting.push(candidate)
    }
    if (++read >= LIST_PAGES * 50) {
      logger.warn(`medusa-payment-tw: the service lists more than ${read} subscriptions; the S number of ${ref.id} was looked for in the first ${read} only`)
      break
    }
  }
  return fitting
}

export const firstPaidAt = (transactions: Transaction[]): number | undefined => transactions.map((tx) => Date.parse(tx.paidAt ?? "")).filter((t) => !Number.isNaN(t)).sort()[0]

/** Whether a subscription of the service is the one this checkout started: its terms, and started when its first period was paid. */
function fitsCheckout(candidate: Subscription, ref: SubscriptionRef, transactions: Transaction[], within = STARTED_WITHIN_MS): boolean {
  const extra = candidate as Subscription & { amount?: number; numberOfPeriods?: number }
  const firstPaid = firstPaidAt(transactions)
  const started = Date.parse(candidate.startedAt ?? "")
  return (
    (extra.amount === undefined || extra.amount === ref.amount) &&
    (candidate.paymentInterval === undefined || candidate.paymentInterval === ref.interval_months) &&
    (extra.numberOfPeriods ?? null) === ref.periods_total &&
    firstPaid !== undefined &&
    !Number.isNaN(started) &&
    Math.abs(started - firstPaid) <= within
  )
}

/**
 * Which of several fitting subscriptions is checkout `own`'s, from the first payments of the store's
 * unnumbered checkouts that could have started them (`firstPaid`, by subscription row): the one whose
 * start is nearest `own`'s first payment, when `own` is also the checkout nearest to that start. A tie
 * either way is no answer. Two payments closer together than the service's lag from payment to start
 * can be matched the wrong way round; each checkout's periods are still refunded or ordered by its own
 * transactions, so no money is kept, but an ended checkout's cancel may then stop the other's schedule.
 */
export function nearestOwned(own: string, candidates: Subscription[], firstPaid: ReadonlyMap<string, number | undefined>): Subscription | undefined {
  const distance = (candidate: Subscription, checkout: string) => {
    const paid = firstPaid.get(checkout)
    const started = Date.parse(candidate.startedAt ?? "")
    return paid === undefined || Number.isNaN(started) ? Number.POSITIVE_INFINITY : Math.abs(started - paid)
  }
  const mine = uniqueNearest(candidates, (candidate) => distance(candidate, own))
  return mine && uniqueNearest([...firstPaid.keys()], (checkout) => distance(mine, checkout)) === own ? mine : undefined
}

function uniqueNearest<T>(items: T[], distance: (item: T) => number): T | undefined {
  const sorted = items.map((item) => ({ item, d: distance(item) })).sort((a, b) => a.d - b.d)
  return sorted[0] && Number.isFinite(sorted[0].d) && (sorted.length === 1 || sorted[1].d > sorted[0].d) ? sorted[0].item : undefined
}
