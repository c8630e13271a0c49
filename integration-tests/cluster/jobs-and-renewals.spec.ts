import { card, control, payPage, PROVIDER_ID, PROVIDER_KEY, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { linesSince, type ProductionStore, shopperCart, startSession, useProductionStore } from "../helpers/production-store"

/**
 * The cluster profile's scheduled work with two workers: Medusa's Redis workflow engine keeps each
 * scheduled job as one repeatable BullMQ job, so each tick runs once across the workers; and renewals,
 * charged by the service at one tick, become one renewal order per paid period whichever worker's
 * notification handling or subscription job gets there. The reconciliation is on, and the
 * subscription reconciliation runs every minute (the payments one always does).
 */
jest.setTimeout(300_000)
const shop = useProductionStore({ servers: 2, workers: 2, env: { TW_SUBSCRIPTION_RECONCILE_SCHEDULE: "* * * * *" } })

const WORKERS = ["worker-1", "worker-2"]
const MINUTE = 60_000
/** A run of either job is over well within this after its tick (a few reads at 5 a second). */
const RUN_MS = 30_000
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
/** Each run of the payments job logs this once while an open session is there to read (src/jobs/reconcile-tw-payments.ts). */
const PAYMENTS_RUN = new RegExp(`reconciled \\d+ open ${escape(PROVIDER_KEY)} session\\(s\\)`)
/** Each run of the subscriptions job logs this once while a live subscription is there to read (src/jobs/reconcile-tw-subscriptions.ts). */
const SUBSCRIPTIONS_RUN = new RegExp(`reconciled (\\d+) ${escape(PROVIDER_KEY)} subscription\\(s\\)`)
/** The sweep's line when it ran any payment (src/jobs/reconcile-tw-payments.ts). */
const SWEPT = new RegExp(`swept \\d+ page\\(s\\) of ${escape(PROVIDER_KEY)} payments`)
const SUBSCRIPTIONS = 3

/** Every line of the workers, stamped with when the test saw it, and the sandbox's subscription reads, once a second. */
interface Seen {
  since: number
  lines: Array<{ at: number; role: string; line: string }>
  reads: Array<{ at: number; subscriptionReads: number }>
}
const seen: Seen = { since: 0, lines: [], reads: [] }
let watcher: NodeJS.Timeout | undefined

async function subscriptionReads(store: ProductionStore): Promise<number> {
  const { apiCalls } = await control(store.sandbox, "GET", "/api-calls?api=hosted")
  return (apiCalls as Array<{ endpoint: string; calls: number }>).filter((c) => c.endpoint === "GET /subscriptions/{id}").reduce((n, c) => n + c.calls, 0)
}

beforeAll(async () => {
  const store = shop.current
  // An open hosted page, never paid: the payments job's walk reads it (and logs its line) at every run.
  const cart = await shopperCart(store)
  await startSession(store, cart.id, PROVIDER_ID)
  const marks = Object.fromEntries(WORKERS.map((role) => [role, store.logs[role].length]))
  seen.since = Date.now()
  let busy = false
  watcher = setInterval(() => {
    const at = Date.now()
    for (const role of WORKERS) {
      for (const line of linesSince(store.logs[role], marks[role])) {
        seen.lines.push({ at, role, line })
      }
      marks[role] = store.logs[role].length
    }
    if (!busy) {
      busy = true
      subscriptionReads(store)
        .then((subscriptionReads) => seen.reads.push({ at, subscriptionReads }))
        .catch(() => undefined)
        .finally(() => (busy = false))
    }
  }, 1_000)
}, 60_000)

afterAll(() => clearInterval(watcher))

/** A customer account, logged in, as a storefront signs one up. */
async function customer(store: ProductionStore, email: string): Promise<Record<string, string>> {
  const auth = async (path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${store.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body ?? {}),
    })
    if (!res.ok) {
      throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`)
    }
    return ((await res.json()) as { token: string }).token
  }
  const registered = await auth("/auth/customer/emailpass/register", undefined, { email, password: "cluster-customer-password-1" })
  await store.api("POST", "/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { authorization: `Bearer ${registered}` } })
  return { authorization: `Bearer ${await auth("/auth/token/refresh", registered)}` }
}

/** A customer subscribes to the seeded monthly tea box on the recurring page and never returns; answers the subscription's id. */
async function subscribe(store: ProductionStore, email: string): Promise<string> {
  const [plan] = await store.sql<{ id: string; variant_id: string }>("select id, variant_id from tw_subscription_plan where deleted_at is null and kind = 'monthly' and active order by created_at limit 1")
  const headers = await customer(store, email)
  const { data: created } = await store.api<{ cart: { id: string } }>(
    "POST",
    "/store/carts",
    {
      region_id: store.store.regionId,
      email,
      items: [{ variant_id: plan.variant_id, quantity: 1 }],
      shipping_address: { first_name: "Mei", last_name: "Lin", address_1: "No. 7, Section 5, Xinyi Road", city: "Taipei", postal_code: "110", country_code: "tw" },
    },
    { headers }
  )
  const cartId = created.cart.id
  await store.api("POST", `/store/carts/${cartId}/shipping-methods`, { option_id: store.store.shippingOptionId }, { headers })
  const { data } = await store.api<{ subscription: { id: string }; payment_session: { data: { checkoutUrl: string } } }>("POST", `/store/carts/${cartId}/tw-subscription`, { plan_id: plan.id }, { headers })
  await payPage(data.payment_session.data.checkoutUrl, card(SUCCESS_CARD))
  return data.subscription.id
}

interface SubscriptionRow {
  id: string
  status: string
  first_order_id: string | null
  service_subscription_id: string | null
}

const subscriptionRows = (store: ProductionStore, ids: string[]) =>
  store.sql<SubscriptionRow>("select id, status, first_order_id, service_subscription_id from tw_subscription where id = any($1) and deleted_at is null", [ids])

/** Orders of the subscriptions for a period after the first (renewal-order.ts sets the metadata), live or soft-deleted. */
const renewalOrders = (store: ProductionStore, ids: string[]) =>
  store.sql<{ id: string; subscription_id: string; period: string; deleted_at: Date | null; captured: boolean }>(
    `select o.id, o.metadata->>'tw_subscription_id' as subscription_id, o.metadata->>'tw_subscription_period' as period, o.deleted_at,
            exists (select 1 from order_payment_collection opc join payment p on p.payment_collection_id = opc.payment_collection_id
                     where opc.order_id = o.id and opc.deleted_at is null and p.deleted_at is null and p.captured_at is not null) as captured
       from "order" o where o.metadata->>'tw_subscription_id' = any($1)`,
    [ids]
  )

const live = { ids: [] as string[], since: 0, renewedAt: 0 }

describe("cluster profile: scheduled jobs and renewals with two workers", () => {
  it("renewals charged at one tick: exactly one captured renewal order per paid period, none twice, after the notifications and a subscription job tick with two workers", async () => {
    const store = shop.current
    live.ids = await Promise.all(Array.from({ length: SUBSCRIPTIONS }, (_, i) => subscribe(store, `renewal-${i}@example.test`)))
    const rows = await waitFor(
      async () => {
        const found = await subscriptionRows(store, live.ids)
        return found.length === SUBSCRIPTIONS && found.every((r) => r.status === "active" && r.first_order_id && r.service_subscription_id) ? found : undefined
      },
      "every subscription active with its first order",
      90_000
    )
    live.since = Date.now()

    // The service charges the second period of each at its due time: the clock moves to the last of them.
    const hids = new Set(rows.map((r) => r.service_subscription_id!))
    const { subscriptions } = await control(store.sandbox, "GET", `/subscriptions?merchantId=${store.sandbox.defaultMerchant.merchantId}`)
    const due = (subscriptions as Array<{ id: string; nextChargeAt?: string }>).filter((s) => hids.has(s.id)).map((s) => s.nextChargeAt!)
    expect(due).toHaveLength(SUBSCRIPTIONS)
    await control(store.sandbox, "PUT", "/clock", { now: due.sort()[due.length - 1] })
    const movedAt = Date.now()

    await waitFor(
      async () => {
        const orders = (await renewalOrders(store, live.ids)).filter((o) => !o.deleted_at && o.captured)
        return new Set(orders.map((o) => o.subscription_id)).size === SUBSCRIPTIONS
      },
      "a captured renewal order for every subscription",
      120_000
    )
    live.renewedAt = Date.now()
    // Then one subscription job tick after the move (whichever worker runs it), its run over.
    const tick = Math.ceil(movedAt / MINUTE) * MINUTE
    await waitFor(async () => seen.lines.some((l) => l.at >= tick && SUBSCRIPTIONS_RUN.test(l.line)), "a subscription job run after the move", 2 * MINUTE)
    await new Promise((resolve) => setTimeout(resolve, 5_000))

    const orders = await renewalOrders(store, live.ids)
    const perPeriod = new Map<string, number>()
    for (const order of orders.filter((o) => !o.deleted_at)) {
      perPeriod.set(`${order.subscription_id}:${order.period}`, (perPeriod.get(`${order.subscription_id}:${order.period}`) ?? 0) + 1)
    }
    expect([...perPeriod.keys()].sort()).toEqual(live.ids.map((id) => `${id}:2`).sort())
    expect([...perPeriod.values()]).toEqual(Array(SUBSCRIPTIONS).fill(1))
    expect(orders.filter((o) => !o.deleted_at).every((o) => o.captured)).toBe(true)
    // At the service: one paid second period per subscription, none refunded.
    const { transactions } = await control(store.sandbox, "GET", `/transactions?merchantId=${store.sandbox.defaultMerchant.merchantId}`)
    const periods = (transactions as Array<{ subscriptionId?: string; period?: number; status: string; refundAmount?: number }>).filter(
      (tx) => tx.subscriptionId && hids.has(tx.subscriptionId) && Number(tx.period) >= 2
    )
    expect(periods.map((tx) => tx.status)).toEqual(Array(SUBSCRIPTIONS).fill("charged"))
    expect(periods.filter((tx) => tx.refundAmount)).toEqual([])
    // And no refund in the store.
    const [refunds] = await store.sql<{ n: number }>("select count(*)::int as n from refund where deleted_at is null")
    expect(refunds.n).toBe(0)
  })

  it("the payments and subscriptions reconciliation jobs run once per tick across both workers", async () => {
    const store = shop.current
    if (!live.ids.length) {
      live.ids = [await subscribe(store, "jobs@example.test")]
      live.since = Date.now()
    }
    // Ticks watched from before they fired (with a live subscription) to after their runs were over,
    // the renewal test's included; the reads are compared at one after the renewals settled.
    const from = Math.max(seen.since, live.since) + 1_000
    const complete = () => {
      const ticks: number[] = []
      for (let tick = Math.ceil(from / MINUTE) * MINUTE; tick + RUN_MS < Date.now(); tick += MINUTE) {
        ticks.push(tick)
      }
      return ticks
    }
    const settled = (tick: number) => tick - 500 > live.renewedAt
    // The service's count at a moment, from the sample taken within 2 s before it: on a loaded machine the
    // watcher's samples can lag, and an older one would count the previous tick's reads in this one.
    const readsAt = (at: number) => [...seen.reads].reverse().find((r) => r.at <= at && r.at > at - 2_000)?.subscriptionReads
    const sampledReads = (end: number | undefined, start: number | undefined) => (end === undefined || start === undefined ? undefined : end - start)
    const observed = () => complete().map((tick) => {
      const lines = seen.lines.filter((l) => l.at >= tick && l.at < tick + MINUTE)
      const payments = lines.filter((l) => PAYMENTS_RUN.test(l.line))
      const subscriptions = lines.filter((l) => SUBSCRIPTIONS_RUN.test(l.line))
      return {
        tick: new Date(tick).toISOString(),
        settled: settled(tick),
        payments: payments.map((l) => l.role),
        subscriptions: subscriptions.map((l) => l.role),
        /** Subscriptions the run said it read, and the reads the sandbox counted meanwhile. */
        read: subscriptions.reduce((n, l) => n + Number(SUBSCRIPTIONS_RUN.exec(l.line)![1]), 0),
        sandboxReads: sampledReads(readsAt(tick + RUN_MS), readsAt(tick - 500)),
        sweepsSkipped: lines.filter((l) => l.line.includes("sweep is already running elsewhere")).length,
        /** The payments job's sweep ran payments of the service's (say, renewal periods it had not seen yet), which read their subscriptions too. */
        swept: lines.some((l) => SWEPT.test(l.line)),
      }
    })
    // At least two ticks, and one after the renewals where the sweep ran nothing (the first after them may run the new periods).
    const perTick = await waitFor(
      async () => {
        const ticks = observed()
        return ticks.length >= 2 && ticks.some((tick) => tick.settled && !tick.swept && tick.sandboxReads !== undefined) ? ticks : undefined
      },
      "two complete ticks, one of them quiet after the renewals",
      4 * MINUTE + RUN_MS
    )
    console.log(`job runs per tick: ${JSON.stringify(perTick)}`)
    for (const tick of perTick) {
      expect(tick.payments).toHaveLength(1)
      expect(tick.subscriptions).toHaveLength(1)
      expect(WORKERS).toEqual(expect.arrayContaining([...tick.payments, ...tick.subscriptions]))
      expect(tick.read).toBeGreaterThanOrEqual(live.ids.length)
      if (tick.sandboxReads !== undefined) {
        expect(tick.sandboxReads).toBeGreaterThanOrEqual(tick.read)
      }
      expect(tick.sweepsSkipped).toBe(0)
    }
    // At a tick after the renewals where the sweep ran nothing, the service counted one read of each
    // subscription: no second run read them again. (At the tick after renewals, the sweep may run the new
    // periods, which reads their subscriptions too.)
    const quiet = perTick.filter((tick) => tick.settled && !tick.swept && tick.sandboxReads !== undefined)
    expect(quiet.length).toBeGreaterThanOrEqual(1)
    for (const tick of quiet) {
      expect(tick.sandboxReads).toBe(tick.read)
    }
    // Still exactly one renewal order per paid period after more runs of both workers' jobs.
    const orders = (await renewalOrders(store, live.ids)).filter((o) => !o.deleted_at)
    expect(new Set(orders.map((o) => `${o.subscription_id}:${o.period}`)).size).toBe(orders.length)
  })
})
