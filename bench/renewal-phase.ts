// The renewals scenario of `npm run bench:burst -- --scenario renewals`: K logged-in customers
// subscribe monthly on the recurring page (shoppers never return), then the sandbox clock moves to
// the second period's 09:00 Taipei tick, so all K renewals are charged at once and their
// notifications arrive together. Every renewal order has to come from the event pipeline.
import pLimit from "p-limit"
import { setTimeout as sleep } from "node:timers/promises"
import { loggedInCustomer } from "./customers"
import { summarizeLogs, type LogSummary } from "./medusa-logs"
import { percentile } from "./percentiles"
import { acceptedAttempts, notifications, transactions } from "./sandbox-records"
import { cardFields, createCart, openPage, submitPage } from "./shopper"
import { type BenchStore, HarnessError } from "./store"

const SUCCESS_CARD = "4242424242424242"
/** Customers prepared at once (setup is not measured; each costs Medusa one password hash). */
const SETUP_CONCURRENCY = 8
const HOUR_MS = 3_600_000
const TAIPEI_MS = 8 * HOUR_MS

export interface RenewalOptions {
  k: number
  /** Give up waiting for renewal orders this many seconds after the clock move… */
  deadlineSeconds: number
  /** …or when none was created for this many seconds. */
  idleSeconds: number
  /** An admin's `authorization` header (plans are created in the admin). */
  admin: Record<string, string>
  say: (line: string) => void
}

export interface RenewalResult {
  k: number
  /** Seconds to prepare the K subscriptions up to their first orders. */
  setupSeconds: number
  /** Distinct due times of the second period at the service (1: one tick for all). */
  dueTicks: number
  dueAt: string
  /** Milliseconds the clock move took (the sandbox answers once every charge and first delivery is done). */
  clockMoveMs: number
  /** Second periods paid at the service. */
  chargedAtService: number
  /** Live renewal orders of the K subscriptions (any period after the first). */
  renewalOrders: number
  /** …of which with a captured payment. */
  capturedRenewals: number
  subscriptionsWithoutRenewal: number
  /** Subscription periods with more than one live order, and carts (first orders) with more than one. */
  duplicatePeriods: number
  duplicateFirstOrders: number
  /** Orders soft-deleted during the renewals (a compensation). */
  ordersDeleted: number
  refundedAtService: number
  refundsInStore: number
  /** Service reads during the renewals, by endpoint. */
  reads: Record<string, number>
  notificationsAccepted: number
  setupLogs: LogSummary
  logs: LogSummary
  /** Renewals the pipeline could not settle on a run (`… not settled yet`, each one an error line too). */
  unsettled: string[]
  /** Seconds from the clock move (the charges) to each renewal order's creation, and to its payment captured. */
  toOrder: Latency
  toCapture: Latency
  cpuSeconds: number
  /** From the clock move to the last capture. */
  wallSeconds: number
  ended: "all renewals" | "deadline" | "idle"
}

interface Latency {
  p50?: number
  p95?: number
  max?: number
}

interface SubscriptionRow {
  id: string
  status: string
  cart_id: string
  first_order_id: string | null
  service_subscription_id: string | null
}

const count = async (store: BenchStore, text: string) => Number((await store.sql<{ n: string }>(text))[0].n)
const deletedOrders = (store: BenchStore) => count(store, `select count(*) as n from "order" where deleted_at is not null`)
const storeRefunds = (store: BenchStore) => count(store, `select count(*) as n from refund where deleted_at is null`)

/** Hosted API calls the store made so far, by endpoint (`METHOD /template`). */
async function hostedCalls(store: BenchStore): Promise<Map<string, number>> {
  const body = await store.control<{ apiCalls: Array<{ api: string; endpoint: string; calls: number }> }>(
    "GET",
    `/api-calls?api=hosted&merchantId=${store.sandbox.defaultMerchant.merchantId}`
  )
  const calls = new Map<string, number>()
  for (const row of body.apiCalls) {
    calls.set(row.endpoint, (calls.get(row.endpoint) ?? 0) + row.calls)
  }
  return calls
}

/** The sandbox's Taipei hour now; subscribing across a Taipei midnight would split the renewals over two days. */
async function avoidTaipeiMidnight(store: BenchStore, say: RenewalOptions["say"]) {
  const { now } = await store.control<{ now: string }>("GET", "/clock")
  const taipei = new Date(Date.parse(now) + TAIPEI_MS)
  if (taipei.getUTCHours() >= 22) {
    const next = Date.UTC(taipei.getUTCFullYear(), taipei.getUTCMonth(), taipei.getUTCDate() + 1, 10) - TAIPEI_MS
    await store.control("PUT", "/clock", { now: new Date(next).toISOString() })
    say(`renewals: sandbox clock moved to 10:00 Taipei tomorrow, so that every subscription starts on one Taipei day`)
  }
}

async function subscriptionRows(store: BenchStore, ids: string[]): Promise<SubscriptionRow[]> {
  return store.sql<SubscriptionRow>(`select id, status, cart_id, first_order_id, service_subscription_id from tw_subscription where id = any($1) and deleted_at is null`, [ids])
}

/** Live orders of the subscriptions placed for a period after the first (`metadata` set by renewal-order.ts). */
async function renewalOrdersOf(store: BenchStore, ids: string[]) {
  return store.sql<{ id: string; subscription_id: string; period: string; created_at: Date; captured_at: Date | null }>(
    `select o.id, o.metadata->>'tw_subscription_id' as subscription_id, o.metadata->>'tw_subscription_period' as period, o.created_at,
            (select max(p.captured_at) from order_payment_collection opc join payment p on p.payment_collection_id = opc.payment_collection_id
              where opc.order_id = o.id and opc.deleted_at is null and p.deleted_at is null) as captured_at
       from "order" o
      where o.deleted_at is null and o.metadata->>'tw_subscription_id' = any($1)`,
    [ids]
  )
}

export async function renewalPhase(store: BenchStore, { k, deadlineSeconds, idleSeconds, admin, say }: RenewalOptions): Promise<RenewalResult> {
  const setupStarted = Date.now()
  const setupLogsFrom = store.logs.length
  const { data: created } = await store.api<{ plan: { id: string } }>(
    "POST",
    `/admin/product-variants/${store.catalog.variantId}/tw-subscription-plans`,
    { title: "Monthly oolong", kind: "monthly" },
    { headers: admin }
  )
  await avoidTaipeiMidnight(store, say)

  say(`renewals: ${k} customers subscribing monthly on the recurring page (shoppers never return)`)
  const limit = pLimit(SETUP_CONCURRENCY)
  const subscriptionIds = await Promise.all(
    Array.from({ length: k }, (_, index) =>
      limit(async () => {
        const email = `renewal-${index}@example.test`
        const headers = await loggedInCustomer(store, email)
        const cartId = await createCart(store, email, headers)
        const { data } = await store.api<{ subscription: { id: string }; payment_session: { data: { checkoutUrl?: string } } }>(
          "POST",
          `/store/carts/${cartId}/tw-subscription`,
          { plan_id: created.plan.id },
          { headers }
        )
        const checkoutUrl = data.payment_session.data.checkoutUrl
        if (!checkoutUrl) {
          throw new HarnessError(`cart ${cartId}: the subscription session holds no checkoutUrl`)
        }
        await openPage(checkoutUrl)
        await submitPage(checkoutUrl, cardFields(SUCCESS_CARD))
        return data.subscription.id
      })
    )
  )

  say(`renewals: waiting for the ${k} first orders`)
  let rows: SubscriptionRow[] = []
  const ready = (r: SubscriptionRow) => r.status === "active" && !!r.first_order_id && !!r.service_subscription_id
  let lastReady = -1
  let lastProgress = Date.now()
  for (;;) {
    rows = await subscriptionRows(store, subscriptionIds)
    const done = rows.filter(ready).length
    if (done === k) {
      break
    }
    if (done !== lastReady) {
      lastReady = done
      lastProgress = Date.now()
    } else if (Date.now() - lastProgress > idleSeconds * 1000) {
      throw new HarnessError(`only ${done}/${k} subscriptions got their first order; no progress for ${idleSeconds} s`)
    }
    await sleep(1_000)
  }
  const setupSeconds = (Date.now() - setupStarted) / 1000
  say(`renewals: ${k} active subscriptions with their first order after ${setupSeconds.toFixed(0)} s`)

  const hids = new Set(rows.map((r) => r.service_subscription_id!))
  const { subscriptions } = await store.control<{ subscriptions: Array<{ id: string; nextChargeAt?: string }> }>(
    "GET",
    `/subscriptions?merchantId=${store.sandbox.defaultMerchant.merchantId}`
  )
  const due = [...new Set(subscriptions.filter((s) => hids.has(s.id)).map((s) => s.nextChargeAt ?? "none"))].sort()
  if (due.includes("none")) {
    throw new HarnessError(`a subscription has no next charge at the service`)
  }
  const dueAt = due[due.length - 1]

  const deletedBefore = await deletedOrders(store)
  const refundsBefore = await storeRefunds(store)
  const callsBefore = await hostedCalls(store)
  const logsFrom = store.logs.length
  const cpuBefore = store.cpuSeconds()

  say(`renewals: sandbox clock to ${dueAt} (${due.length === 1 ? "one 09:00 Taipei tick for all" : `${due.length} different ticks`})`)
  const charged = Date.now()
  await store.control("PUT", "/clock", { now: dueAt })
  const clockMoveMs = Date.now() - charged

  let renewals: Awaited<ReturnType<typeof renewalOrdersOf>> = []
  let ended: RenewalResult["ended"] = "deadline"
  let lastProgressAt = Date.now()
  const captured = () => renewals.filter((o) => o.captured_at)
  for (;;) {
    const before = [renewals.length, captured().length]
    renewals = await renewalOrdersOf(store, subscriptionIds)
    if (renewals.length !== before[0] || captured().length !== before[1]) {
      lastProgressAt = Date.now()
    }
    if (new Set(captured().map((o) => o.subscription_id)).size >= k) {
      ended = "all renewals"
      break
    }
    if (Date.now() - charged > deadlineSeconds * 1000) {
      ended = "deadline"
      break
    }
    if (Date.now() - lastProgressAt > idleSeconds * 1000) {
      ended = "idle"
      break
    }
    await sleep(500)
  }
  const cpuSeconds = store.cpuSeconds() - cpuBefore
  const lastAt = Math.max(charged, ...captured().map((o) => o.captured_at!.getTime()))
  say(`renewals: ${renewals.length}/${k} renewal orders, ${captured().length} captured, after ${((Date.now() - charged) / 1000).toFixed(1)} s (${ended})`)
  // Let what the last renewals set off (order.placed, the last deliveries' answers) land before counting.
  await sleep(2_000)
  renewals = await renewalOrdersOf(store, subscriptionIds)

  const perPeriod = new Map<string, number>()
  for (const order of renewals) {
    const key = `${order.subscription_id}:${order.period}`
    perPeriod.set(key, (perPeriod.get(key) ?? 0) + 1)
  }
  const firstOrders = await store.sql<{ cart_id: string; n: string }>(
    `select oc.cart_id, count(*) as n from order_cart oc join "order" o on o.id = oc.order_id
      where oc.cart_id = any($1) and oc.deleted_at is null and o.deleted_at is null group by oc.cart_id`,
    [rows.map((r) => r.cart_id)]
  )
  const serviceTransactions = (await transactions(store)).filter((tx) => hids.has(String(tx.subscriptionId)) && Number(tx.period) >= 2)
  const renewalNotifications = (await notifications(store, "charge")).filter((n) => hids.has(String(n.body.subscriptionId)) && Number(n.body.period) >= 2)
  const callsAfter = await hostedCalls(store)
  const reads = Object.fromEntries(
    [...callsAfter].filter(([endpoint]) => endpoint.startsWith("GET ")).map(([endpoint, calls]) => [endpoint, calls - (callsBefore.get(endpoint) ?? 0)]).filter(([, calls]) => Number(calls) > 0)
  )
  const logs = summarizeLogs(store.logs.slice(logsFrom))
  const since = (times: Date[]) => {
    const seconds = times.map((t) => (t.getTime() - charged) / 1000)
    return { p50: percentile(seconds, 50), p95: percentile(seconds, 95), max: percentile(seconds, 100) }
  }

  return {
    k,
    setupSeconds,
    dueTicks: due.length,
    dueAt,
    clockMoveMs,
    chargedAtService: serviceTransactions.filter((tx) => tx.paidAt).length,
    renewalOrders: renewals.length,
    capturedRenewals: captured().length,
    subscriptionsWithoutRenewal: k - new Set(renewals.map((o) => o.subscription_id)).size,
    duplicatePeriods: [...perPeriod.values()].filter((n) => n > 1).length,
    duplicateFirstOrders: firstOrders.filter((c) => Number(c.n) > 1).length,
    ordersDeleted: (await deletedOrders(store)) - deletedBefore,
    refundedAtService: serviceTransactions.filter((tx) => tx.refundAmount).length,
    refundsInStore: (await storeRefunds(store)) - refundsBefore,
    reads,
    notificationsAccepted: acceptedAttempts(renewalNotifications),
    setupLogs: summarizeLogs(store.logs.slice(setupLogsFrom, logsFrom)),
    logs,
    unsettled: logs.errorLines.filter((line) => /not settled yet/.test(line)),
    toOrder: since(renewals.map((o) => o.created_at)),
    toCapture: since(captured().map((o) => o.captured_at!)),
    cpuSeconds,
    wallSeconds: (lastAt - charged) / 1000,
    ended,
  }
}
