import { card, control, HOOK_PATH, payPage, PROVIDER_ID, SUCCESS_CARD, transactionReads, waitFor } from "../helpers/hosted-store"
import { capturedPaymentsOfCartOrder, linesSince, type ProductionStore, shopperCart, startSession, useProductionStore } from "../helpers/production-store"

/**
 * The cluster profile (scripts/cluster.ts): two `medusa start` servers behind haproxy, which the
 * sandbox notifies, and two workers, on one Redis and one PostgreSQL. One payment's deliveries are
 * acted on once whichever processes take them, and a delivery outlives the server that took it in.
 * The scheduled reconciliation is off: it would settle the payments by itself, with reads of its own.
 * The delivery delay is 6 s (the tests' default is 0.5 s), so every copy below is taken in before the
 * first is handled, and a server can be killed while it still holds what it took in.
 */
jest.setTimeout(300_000)
const DELAY_MS = 6_000
const shop = useProductionStore({ servers: 2, workers: 2, env: { TW_RECONCILIATION: "off", TW_DELIVERY_DELAY_MS: String(DELAY_MS) } })

const SERVERS = ["server-1", "server-2"]
const WORKERS = ["worker-1", "worker-2"]
/** Core's Redis event bus prints this in the process that consumes the event (one per queued copy and attempt). */
const CONSUMED_WEBHOOK = /Processing payment\.webhook_received\b/
/** The intake's answer, as a server's request log prints it. */
const TAKEN_IN = (line: string) => line.includes(`POST ${HOOK_PATH}`) && line.includes("(200)")
/** The Redis event bus's first retry waits this long (medusa-config.ts: exponential backoff from 2 s). */
const RETRY_BACKOFF_MS = 2_000
/** A delivery's lease runs out this long after its holder's last renewal (src/deliveries/delivery-claims.ts). */
const LEASE_SECONDS = 15
/** A cart completion on two cores shared by four Medusa processes and the test. */
const HANDLING_MS = 25_000

type Marks = Record<string, number>
const marksOf = (store: ProductionStore): Marks => Object.fromEntries(store.roles.map((role) => [role, store.logs[role].length]))
const linesOf = (store: ProductionStore, marks: Marks, role: string) => linesSince(store.logs[role], marks[role])
const count = (lines: string[], match: (line: string) => boolean) => lines.filter(match).length

/** The sandbox's charge notifications about one transaction (the original and any duplicate). */
async function chargeNotifications(store: ProductionStore, transactionId: string) {
  const { notifications } = await control(store.sandbox, "GET", "/notifications?purpose=charge")
  return (notifications as Array<{ body: Record<string, unknown>; state: string; fault?: string; attempts: Array<{ status?: number }> }>).filter((n) => n.body.id === transactionId)
}

/** Live orders placed from the cart (a compensation soft-deletes the one it undoes). */
async function ordersOfCart(store: ProductionStore, cartId: string) {
  return store.sql<{ id: string; created_at: Date }>(
    `select o.id, o.created_at from order_cart oc join "order" o on o.id = oc.order_id
      where oc.cart_id = $1 and oc.deleted_at is null and o.deleted_at is null`,
    [cartId]
  )
}


describe("cluster profile: two servers behind haproxy, two workers", () => {
  it("boots four processes on Redis behind the balancer", () => {
    const { roles, bootMs, timings, url } = shop.current
    console.log(`cluster store start-up (ms): ${JSON.stringify(timings)}; /health after ${JSON.stringify(bootMs)}; balancer ${url}`)
    expect(roles).toEqual([...SERVERS, ...WORKERS])
  })

  it("one notification sent several times at once, its copies reaching both servers and each queued for the workers: one read, one order, one capture; every other attempt skipped", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    const transactionId = session.data.transactionId
    const key = `${transactionId}:charged`
    // The sandbox sends the `charged` notification twice at once, round-robin onto both servers.
    await control(store.sandbox, "POST", "/faults", { kind: "duplicate", purpose: "charge", count: 1 })
    const marks = marksOf(store)
    const reads = await transactionReads(store.sandbox)

    await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    const sent = await waitFor(
      async () => {
        const found = await chargeNotifications(store, transactionId)
        return found.length >= 2 && found.every((n) => n.state === "delivered") ? found : undefined
      },
      "the sandbox to deliver the notification and its duplicate",
      20_000
    )
    expect(sent.map((n) => n.body.status)).toEqual(["charged", "charged"])
    // And twice more at once, as the service's own retries would, well within the delivery delay.
    const resent = await Promise.all(
      [1, 2].map(() => fetch(`${store.url}${HOOK_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sent[0].body) }))
    )
    expect(resent.map((res) => res.status)).toEqual([200, 200])
    const copies = sent.length + resent.length

    const payments = await capturedPaymentsOfCartOrder(store, cart.id, 90_000)
    expect(payments).toHaveLength(1)
    expect(Number(payments[0].amount)).toBe(cart.total)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    expect(await ordersOfCart(store, cart.id)).toHaveLength(1)

    // Every copy was tried twice: by the server that took it in (its own share) and by a worker (the
    // queued copy). One attempt read the service and acted; each other one logged that it skipped.
    const skipped = (line: string) => line.includes(key) && line.includes("skipped")
    await waitFor(
      async () => store.roles.reduce((n, role) => n + count(linesOf(store, marks, role), skipped), 0) >= 2 * copies - 1,
      "every other attempt to be skipped",
      60_000
    )
    const takenIn = Object.fromEntries(SERVERS.map((role) => [role, count(linesOf(store, marks, role), TAKEN_IN)]))
    const consumed = Object.fromEntries(WORKERS.map((role) => [role, count(linesOf(store, marks, role), (line) => CONSUMED_WEBHOOK.test(line))]))
    const skips = Object.fromEntries(store.roles.map((role) => [role, count(linesOf(store, marks, role), skipped)]))
    console.log(`copies taken in ${JSON.stringify(takenIn)}, consumed ${JSON.stringify(consumed)}, skipped ${JSON.stringify(skips)}`)
    // Through the balancer, copies reached both servers; the workers consumed every queued copy once.
    expect(SERVERS.every((role) => takenIn[role] >= 1)).toBe(true)
    expect(SERVERS.reduce((n, role) => n + takenIn[role], 0)).toBe(copies)
    expect(WORKERS.reduce((n, role) => n + consumed[role], 0)).toBe(copies)
    const attempts: Record<string, number> = { ...takenIn, ...consumed }
    const handled = store.roles.map((role) => attempts[role] - skips[role])
    expect(handled.every((n) => n === 0 || n === 1)).toBe(true)
    expect(handled.reduce((n, h) => n + h, 0)).toBe(1)
    expect(store.roles.flatMap((role) => linesOf(store, marks, role)).filter((line) => line.includes(key) && line.includes("not handled yet"))).toEqual([])
    // One read of the transaction for the one handled delivery key.
    expect((await transactionReads(store.sandbox)) - reads).toBe(1)
  })

  /*
   * What the design guarantees here: a server's own share of a delivery (server-deliveries.ts) lives
   * in its memory until the delay is over and dies with it; the copy the intake queued in Redis before
   * answering 200 is the durable one, and a worker handles it when the delay is over, on its first
   * attempt (or, when that fails, on the event bus's retry after its 2 s backoff). So the server is
   * killed while it holds the delivery in memory, right after its answer.
   * A server killed *inside* its handling holds the payment's lease: the next test.
   */
  it("a server killed right after it took a notification in: a worker handles the queued copy within the delay plus one retry backoff, with no reconciliation", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    const key = `${session.data.transactionId}:charged`
    const marks = marksOf(store)
    const reads = await transactionReads(store.sandbox)

    await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    let taker: string | undefined
    const deadline = Date.now() + 20_000
    while (!taker && Date.now() < deadline) {
      taker = SERVERS.find((role) => linesOf(store, marks, role).some(TAKEN_IN))
      if (!taker) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    if (!taker) {
      throw new Error("no server took the notification in")
    }
    const answeredAt = Date.now()
    await store.kill(taker)
    const killedAt = Date.now()
    // Still within the delay: the server's own share had not started.
    expect(killedAt - answeredAt).toBeLessThan(DELAY_MS)
    expect(linesOf(store, marks, taker).filter((line) => line.includes(key))).toEqual([])

    const payments = await capturedPaymentsOfCartOrder(store, cart.id, DELAY_MS + RETRY_BACKOFF_MS + HANDLING_MS + 30_000)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    const orders = await ordersOfCart(store, cart.id)
    expect(orders).toHaveLength(1)
    const placedAfterMs = orders[0].created_at.getTime() - answeredAt
    console.log(`${taker} killed ${killedAt - answeredAt} ms after its answer; the order was placed ${placedAfterMs} ms after the answer`)
    expect(placedAfterMs).toBeLessThan(DELAY_MS + RETRY_BACKOFF_MS + HANDLING_MS)

    // A worker consumed the queued copy; nothing was skipped (the killed server's share never ran); one read.
    const survivors = store.roles.filter((role) => role !== taker)
    expect(WORKERS.reduce((n, role) => n + count(linesOf(store, marks, role), (line) => CONSUMED_WEBHOOK.test(line)), 0)).toBeGreaterThanOrEqual(1)
    expect(survivors.flatMap((role) => linesOf(store, marks, role)).filter((line) => line.includes(key) && line.includes("skipped"))).toEqual([])
    expect(linesOf(store, marks, taker).filter((line) => line.includes(key))).toEqual([])
    expect((await transactionReads(store.sandbox)) - reads).toBe(1)

    // Started again on its port, the server is back in the balancer's rotation (checked every second).
    await store.startProcess(taker)
    const back = store.logs[taker].length
    await waitFor(
      async () => {
        await store.api("GET", "/store/regions")
        return linesSince(store.logs[taker], back).some((line) => line.includes("GET /store/regions"))
      },
      `${taker} to answer through the balancer again`,
      30_000
    )
  })

  /*
   * A server killed while it reads the service for a delivery holds the payment's lease, which the
   * locking module renews while its holder works and which runs out 15 s after the last renewal
   * (delivery-claims.ts LEASE_SECONDS). The workers are stopped while the notification comes in, so
   * the server's own share is the one inside its handling (their queued copy waits in Redis), and the
   * read is held by the sandbox so the kill lands inside it. Started again, a worker's copy waits for
   * the dead server's lease to run out and places the order.
   */
  it("a server killed inside its handling, holding the payment's lease: a worker's copy waits for the lease to run out, then places one order with one capture", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    const key = `${session.data.transactionId}:charged`
    await Promise.all(WORKERS.map((role) => store.stopProcess(role)))
    await control(store.sandbox, "POST", "/faults", { kind: "timeout", endpoint: "GET /transactions/{id}", holdMs: 60_000, then: "answer", count: 1 })
    const marks = marksOf(store)
    const reads = await transactionReads(store.sandbox)

    await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    await waitFor(async () => (await transactionReads(store.sandbox)) > reads, "a server's read of the paid transaction", DELAY_MS + 20_000)
    const holder = SERVERS.find((role) => linesOf(store, marks, role).some(TAKEN_IN))
    if (!holder) {
      throw new Error("no server took the notification in")
    }
    await store.kill(holder)
    const killedAt = Date.now()
    await Promise.all(WORKERS.map((role) => store.startProcess(role)))
    const workersUpAt = Date.now()

    const payments = await capturedPaymentsOfCartOrder(store, cart.id, LEASE_SECONDS * 1000 + HANDLING_MS + 60_000)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    const orders = await ordersOfCart(store, cart.id)
    expect(orders).toHaveLength(1)
    const placedAt = orders[0].created_at.getTime()
    console.log(`${holder} killed inside its read; workers up ${workersUpAt - killedAt} ms later; the order placed ${placedAt - killedAt} ms after the kill`)
    // Once the workers are up, at most the rest of the dead holder's lease plus one handling.
    expect(placedAt - workersUpAt).toBeLessThan(LEASE_SECONDS * 1000 + HANDLING_MS)
    // The dead server's read and the worker's: nobody else read or acted, and nothing was skipped as done.
    expect((await transactionReads(store.sandbox)) - reads).toBe(2)
    expect(store.roles.flatMap((role) => linesOf(store, marks, role)).filter((line) => line.includes(key) && line.includes("skipped"))).toEqual([])
    const other = SERVERS.find((role) => role !== holder)!
    expect(linesOf(store, marks, other).filter((line) => line.includes(key))).toEqual([])

    await store.startProcess(holder)
  })
})
