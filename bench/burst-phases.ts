// The two phases of `npm run bench:burst` on one store: K hosted pages paid at once
// (shoppers never return), then K carts completed with the system provider (the baseline).
import pLimit from "p-limit"
import { setTimeout as sleep } from "node:timers/promises"
import { commonMessages, summarizeLogs, type LogSummary } from "./medusa-logs"
import { type LockWaits, watchLockWaits } from "./lock-waits"
import { percentile } from "./percentiles"
import { machineBusySeconds, namedCpuSeconds, ownCpuSeconds } from "./process-cpu"
import { acceptedAttempts, apiCalls, notifications, transactions } from "./sandbox-records"
import { type StatementsInPhase, statementsSince } from "./sql-statements"
import { cardFields, completeCart, createCart, openPage, startSession, submitPage } from "./shopper"
import type { CpuProfiler } from "./cpu-profiles"
import { type BenchStore, HarnessError, HOSTED_PROVIDER, SYSTEM_PROVIDER } from "./store"

const SUCCESS_CARD = "4242424242424242"
/** Carts set up at once before a phase (setup is not measured). */
const SETUP_CONCURRENCY = 6
const IDLE_SAMPLE_MS = 10_000

export interface PhaseResult {
  k: number
  ordersCreated: number
  cartsWithoutOrder: number
  cartsWithSeveralOrders: number
  /** Orders soft-deleted by a compensation during the phase. */
  ordersDeleted: number
  cpuSeconds: number
  /** The phase's CPU seconds per process (server, worker; or shared). */
  cpuByMode: Record<string, number>
  /** Busy CPU seconds of the whole machine in the phase (PostgreSQL, Redis, sandbox and harness too). */
  machineCpuSeconds: number
  /** The phase's CPU seconds of PostgreSQL, Redis, haproxy and this harness (the sandbox runs in it). */
  otherCpu: { postgres: number; redis: number; balancer: number; harness: number }
  /** Time PostgreSQL backends waited on row, relation or transaction locks in the phase. */
  lockWaits: LockWaits
  /** Cores of the machine busy on average over the phase. */
  machineBusyCores: number
  wallSeconds: number
  ordersPerSecond: number
  logs: LogSummary
  /** SQL statements the Medusa processes ran in the phase (when PostgreSQL keeps statement stats). */
  statements?: StatementsInPhase
  /** Seconds; burst: from the transaction's paidAt to the order's created_at; baseline: the complete call. */
  latency: { p50?: number; p95?: number }
  /**
   * The checkout before the payment, per cart: cart, items, addresses, shipping and the payment session
   * (`SETUP_CONCURRENCY` carts at once). A store pays it for every order too; the scaling model adds it.
   */
  setup: { carts: number; cpuByMode: Record<string, number>; postgres: number; redis: number; balancer: number }
  /** With `--cpu-profile`: the phase's Medusa CPU seconds by package (cpu-profiles.ts). */
  profile?: Record<string, number>
}

export interface BurstResult extends PhaseResult {
  /** Milliseconds from the first page submitted to the last one answered. */
  payWindowMs: number
  /** Milliseconds between the first and the last paidAt the service recorded. */
  paidSpreadMs: number
  /** Transactions the sandbox holds as charged (every page paid?). */
  paid: number
  refundedAtService: number
  /** Refund records in the store (a compensation that reached the service leaves one). */
  refundsInStore: number
  reads: number
  notificationsAccepted: number
  /** Why waiting ended. */
  ended: "all orders" | "deadline" | "idle"
  /** CPU seconds per second the Medusa processes used while idle just before the burst. */
  idleCpuPerSecond: number
}

/** CPU seconds used so far by the machine and its parts; a phase takes the difference of two. */
function cpuCounters(store: BenchStore) {
  return {
    byMode: store.cpuByMode(),
    machine: machineBusySeconds(),
    postgres: namedCpuSeconds("postgres"),
    redis: namedCpuSeconds("redis-server"),
    balancer: namedCpuSeconds("haproxy"),
    harness: ownCpuSeconds(),
  }
}

function cpuSince(store: BenchStore, before: ReturnType<typeof cpuCounters>) {
  const now = cpuCounters(store)
  const cpuByMode = Object.fromEntries(Object.entries(now.byMode).map(([mode, seconds]) => [mode, seconds - (before.byMode[mode] ?? 0)]))
  return {
    cpuSeconds: Object.values(cpuByMode).reduce((a, b) => a + b, 0),
    cpuByMode,
    machineCpuSeconds: now.machine - before.machine,
    otherCpu: {
      postgres: now.postgres - before.postgres,
      redis: now.redis - before.redis,
      balancer: now.balancer - before.balancer,
      harness: now.harness - before.harness,
    },
  }
}

function setupCost(store: BenchStore, before: ReturnType<typeof cpuCounters>, carts: number): PhaseResult["setup"] {
  const { cpuByMode, otherCpu } = cpuSince(store, before)
  return { carts, cpuByMode, postgres: otherCpu.postgres, redis: otherCpu.redis, balancer: otherCpu.balancer }
}

async function captureInAdmin(store: BenchStore, cartIds: string[], { concurrency, admin, say }: { concurrency: number; admin: Record<string, string>; say: (line: string) => void }) {
  const payments = await store.sql<{ id: string }>(
    `select p.id from cart_payment_collection cpc join payment p on p.payment_collection_id = cpc.payment_collection_id
      where cpc.cart_id = any($1) and cpc.deleted_at is null and p.deleted_at is null and p.captured_at is null`,
    [cartIds]
  )
  say(`baseline: the merchant captures ${payments.length} payments in the admin, ${concurrency} at a time`)
  const cpuBefore = cpuCounters(store)
  const answers = await inBatches(payments, concurrency, async ({ id }) => (await store.api("POST", `/admin/payments/${id}/capture`, {}, { headers: admin, allowError: true })).status)
  const { cpuSeconds } = cpuSince(store, cpuBefore)
  return { captured: answers.filter((status) => status === 200).length, cpuSeconds }
}

async function inBatches<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const limit = pLimit(concurrency)
  return Promise.all(items.map((item, index) => limit(() => work(item, index))))
}

/** Starts item i's work i / perSecond seconds in, however long earlier ones take: an open loop at a set rate. */
async function atRate<T, R>(items: T[], perSecond: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const start = Date.now()
  return Promise.all(
    items.map(async (item, index) => {
      await sleep(Math.max(0, start + (index * 1000) / perSecond - Date.now()))
      return work(item, index)
    })
  )
}

interface OrderRow {
  cart_id: string
  order_id: string
  created_at: Date
}

async function ordersOf(store: BenchStore, cartIds: string[]): Promise<OrderRow[]> {
  return store.sql<OrderRow>(
    `select oc.cart_id, o.id as order_id, o.created_at
       from order_cart oc join "order" o on o.id = oc.order_id
      where oc.cart_id = any($1) and oc.deleted_at is null and o.deleted_at is null`,
    [cartIds]
  )
}

const deletedOrders = async (store: BenchStore) => Number((await store.sql<{ n: string }>(`select count(*) as n from "order" where deleted_at is not null`))[0].n)
const storeRefunds = async (store: BenchStore) => Number((await store.sql<{ n: string }>(`select count(*) as n from refund where deleted_at is null`))[0].n)

function orderCounts(cartIds: string[], orders: OrderRow[]) {
  const perCart = new Map<string, number>()
  for (const order of orders) {
    perCart.set(order.cart_id, (perCart.get(order.cart_id) ?? 0) + 1)
  }
  return {
    ordersCreated: orders.length,
    cartsWithoutOrder: cartIds.filter((id) => !perCart.has(id)).length,
    cartsWithSeveralOrders: [...perCart.values()].filter((n) => n > 1).length,
  }
}

export interface BurstOptions {
  k: number
  /** Give up waiting for orders after this many seconds from the payments. */
  deadlineSeconds: number
  /** …or when no order was created for this many seconds. */
  idleSeconds: number
  say: (line: string) => void
  profiler?: CpuProfiler
  /** Pay the pages at this many per second instead of all at once (`--pace`). */
  pace?: number
}

export async function burstPhase(store: BenchStore, { k, deadlineSeconds, idleSeconds, say, profiler, pace }: BurstOptions): Promise<BurstResult> {
  say(`burst: setting up ${k} carts with a hosted-checkout session each`)
  const setupBefore = cpuCounters(store)
  const sessions = await inBatches(Array.from({ length: k }), SETUP_CONCURRENCY, async (_, index) => {
    const cartId = await createCart(store, `burst-${index}@example.test`)
    const session = await startSession(store, cartId, HOSTED_PROVIDER)
    const checkoutUrl = String(session.data.checkoutUrl ?? "")
    if (!checkoutUrl) {
      throw new HarnessError(`cart ${cartId}: the hosted session holds no checkoutUrl`)
    }
    await openPage(checkoutUrl)
    return { cartId, transactionId: String(session.data.transactionId), checkoutUrl }
  })
  const setup = setupCost(store, setupBefore, k)
  const cartIds = sessions.map((s) => s.cartId)
  // What the processes burn doing nothing (pollers, schedulers), to read the per-order figures against.
  const idleFrom = store.cpuSeconds()
  await sleep(IDLE_SAMPLE_MS)
  const idleCpuPerSecond = (store.cpuSeconds() - idleFrom) / (IDLE_SAMPLE_MS / 1000)
  const deletedBefore = await deletedOrders(store)
  const refundsBefore = await storeRefunds(store)
  const readsBefore = await apiCalls(store, "hosted", "GET /transactions/{id}")
  const logsFrom = store.logs.length
  const statementsBefore = await store.statements?.()
  const cpuBefore = cpuCounters(store)
  profiler?.start()
  const lockWatch = watchLockWaits(store.sql)

  const pay = (s: (typeof sessions)[number]) => submitPage(s.checkoutUrl, cardFields(SUCCESS_CARD))
  say(pace ? `burst: paying ${k} pages, ${pace} a second` : `burst: paying all ${k} pages at once`)
  const started = Date.now()
  await (pace ? atRate(sessions, pace, pay) : Promise.all(sessions.map(pay)))
  const payWindowMs = Date.now() - started

  let orders: OrderRow[] = []
  let lastProgress = Date.now()
  let ended: BurstResult["ended"] = "deadline"
  for (;;) {
    const now = await ordersOf(store, cartIds)
    if (now.length !== orders.length) {
      lastProgress = Date.now()
    }
    orders = now
    if (orders.length >= k) {
      ended = "all orders"
      break
    }
    if (Date.now() - started > deadlineSeconds * 1000) {
      ended = "deadline"
      break
    }
    if (Date.now() - lastProgress > idleSeconds * 1000) {
      ended = "idle"
      break
    }
    await sleep(500)
  }
  const cpu = cpuSince(store, cpuBefore)
  const profile = await profiler?.stop()
  const lockWaits = await lockWatch.stop()
  const finished = Date.now()
  say(`burst: ${orders.length}/${k} orders after ${((finished - started) / 1000).toFixed(1)} s (${ended})`)
  // Let what the last orders set off (order.placed, the last notifications' answers) land before counting logs and reads.
  await sleep(2_000)
  const statements = statementsBefore && statementsSince(statementsBefore, (await store.statements?.())!)

  const byTransaction = new Map(sessions.map((s) => [s.transactionId, s.cartId]))
  const serviceTransactions = (await transactions(store)).filter((tx) => byTransaction.has(tx.id))
  const paidAt = new Map(serviceTransactions.flatMap((tx) => (tx.paidAt ? [[byTransaction.get(tx.id)!, Date.parse(tx.paidAt)] as const] : [])))
  const latencies = orders.flatMap((o) => (paidAt.has(o.cart_id) ? [(o.created_at.getTime() - paidAt.get(o.cart_id)!) / 1000] : []))
  const lastOrderAt = Math.max(started, ...orders.map((o) => o.created_at.getTime()))
  const charge = (await notifications(store, "charge")).filter((n) => byTransaction.has(String(n.body.id)))

  return {
    k,
    ...orderCounts(cartIds, orders),
    ordersDeleted: (await deletedOrders(store)) - deletedBefore,
    ...cpu,
    machineBusyCores: cpu.machineCpuSeconds / Math.max(0.001, (finished - started) / 1000),
    wallSeconds: (lastOrderAt - started) / 1000,
    ordersPerSecond: orders.length / Math.max(0.001, (lastOrderAt - started) / 1000),
    logs: summarizeLogs(store.logs.slice(logsFrom)),
    latency: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
    payWindowMs,
    paidSpreadMs: paidAt.size ? Math.max(...paidAt.values()) - Math.min(...paidAt.values()) : 0,
    paid: serviceTransactions.filter((tx) => tx.paidAt).length,
    refundedAtService: serviceTransactions.filter((tx) => tx.refundAmount).length,
    refundsInStore: (await storeRefunds(store)) - refundsBefore,
    reads: (await apiCalls(store, "hosted", "GET /transactions/{id}")) - readsBefore,
    notificationsAccepted: acceptedAttempts(charge),
    ended,
    idleCpuPerSecond,
    statements,
    lockWaits,
    setup,
    profile,
  }
}

export interface BaselineResult extends PhaseResult {
  /**
   * The merchant then capturing each order's payment in the admin (`POST /admin/payments/:id/capture`,
   * `concurrency` at once): a system-provider order is paid only then, a hosted card order at once.
   */
  capture: { captured: number; cpuSeconds: number }
}

export interface BaselineOptions {
  k: number
  /** Completions at once, and the merchant's captures at once. */
  concurrency: number
  admin: Record<string, string>
  say: (line: string) => void
  profiler?: CpuProfiler
  /** Start the completions at this many per second instead (`--pace`). */
  pace?: number
}

export async function baselinePhase(store: BenchStore, { k, concurrency, admin, say, profiler, pace }: BaselineOptions): Promise<BaselineResult> {
  say(`baseline: setting up ${k} carts with a ${SYSTEM_PROVIDER} session each`)
  const setupBefore = cpuCounters(store)
  const carts = await inBatches(Array.from({ length: k }), SETUP_CONCURRENCY, async (_, index) => {
    const cartId = await createCart(store, `baseline-${index}@example.test`)
    await startSession(store, cartId, SYSTEM_PROVIDER)
    return cartId
  })
  const setup = setupCost(store, setupBefore, k)
  const deletedBefore = await deletedOrders(store)
  const logsFrom = store.logs.length
  const statementsBefore = await store.statements?.()
  const cpuBefore = cpuCounters(store)
  profiler?.start()
  const lockWatch = watchLockWaits(store.sql)
  say(pace ? `baseline: completing ${k} carts, ${pace} a second` : `baseline: completing ${k} carts, ${concurrency} at a time`)
  const started = Date.now()
  const refusals: string[] = []
  const complete = async (cartId: string) => {
    const t0 = Date.now()
    const { status, data } = await completeCart(store, cartId)
    if (data.type !== "order") {
      refusals.push(`${status} ${data.error?.message ?? data.message ?? JSON.stringify(data).slice(0, 200)}`)
    }
    return (Date.now() - t0) / 1000
  }
  const durations = await (pace ? atRate(carts, pace, complete) : inBatches(carts, concurrency, complete))
  const wallSeconds = (Date.now() - started) / 1000
  const cpu = cpuSince(store, cpuBefore)
  const profile = await profiler?.stop()
  const lockWaits = await lockWatch.stop()
  await sleep(2_000)
  const statements = statementsBefore && statementsSince(statementsBefore, (await store.statements?.())!)
  const orders = await ordersOf(store, carts)
  say(`baseline: ${orders.length}/${k} orders after ${wallSeconds.toFixed(1)} s`)
  for (const { count, example } of commonMessages(refusals)) {
    say(`baseline: ${count} complete calls answered without an order: ${example}`)
  }
  const capture = await captureInAdmin(store, carts, { concurrency, admin, say })
  return {
    capture,
    k,
    ...orderCounts(carts, orders),
    ordersDeleted: (await deletedOrders(store)) - deletedBefore,
    ...cpu,
    machineBusyCores: cpu.machineCpuSeconds / wallSeconds,
    wallSeconds,
    ordersPerSecond: orders.length / wallSeconds,
    logs: summarizeLogs(store.logs.slice(logsFrom)),
    latency: { p50: percentile(durations, 50), p95: percentile(durations, 95) },
    statements,
    lockWaits,
    setup,
    profile,
  }
}
