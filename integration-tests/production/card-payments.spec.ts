import { card, confirmCard, control, EMBEDDED_PROVIDER_ID, payPage, PROVIDER_ID, SUCCESS_CARD, transactionReads, waitFor } from "../helpers/hosted-store"
import { capturedPaymentsOfCartOrder, linesSince, paymentsOfCartOrder, shopperCart, startSession, useProductionStore, type ProductionStore } from "../helpers/production-store"

/**
 * The production profile (Redis event bus, workflow engine and locking; one
 * server process and one worker process): payments whose shopper never comes
 * back are turned into orders from the delivery the server took in, by whichever
 * process claims it first; the queued copy keeps it safe while the worker is down.
 */
jest.setTimeout(300_000)
const shop = useProductionStore()

/** Core's Redis event bus prints this in the process that consumes the event. */
const CONSUMED_WEBHOOK = /Processing payment\.webhook_received\b/


/** Lines the handler writes for the copy of a delivery that lost the claim to the other process. */
const SKIPPED = "skipped: a repeat, or handled by another process"

/**
 * The server took the delivery in over HTTP and queued it: the worker consumed the queued copy, and the
 * server, which never consumes events, may have handled its own copy (server-deliveries.ts).
 */
function expectTakenInAndQueued(store: ProductionStore, marks: { server: number; worker: number }, hookPath: string) {
  const server = linesSince(store.logs.server, marks.server)
  const worker = linesSince(store.logs.worker, marks.worker)
  expect(server.some((line) => line.includes(`POST ${hookPath}`))).toBe(true)
  expect(server.filter((line) => CONSUMED_WEBHOOK.test(line))).toEqual([])
  expect(worker.filter((line) => CONSUMED_WEBHOOK.test(line)).length).toBeGreaterThanOrEqual(1)
  expect(worker.some((line) => line.includes("/hooks/payment/"))).toBe(false)
}

/** Lines of both processes since the marks that say a copy of this delivery was skipped. */
function skippedCopies(store: ProductionStore, marks: { server: number; worker: number }, deliveryKey: string) {
  const lines = [...linesSince(store.logs.server, marks.server), ...linesSince(store.logs.worker, marks.worker)]
  return lines.filter((line) => line.includes(deliveryKey) && line.includes(SKIPPED))
}

describe("production profile: one server process, one worker process", () => {
  it("boots both processes on Redis, in their own modes", () => {
    const { logs, bootMs, timings } = shop.current
    console.log(`production store start-up (ms): ${JSON.stringify(timings)}; server /health after ${bootMs.server}, worker after ${bootMs.worker}`)
    for (const role of ["server", "worker"] as const) {
      const lines = linesSince(logs[role], 0)
      expect(lines.some((line) => line.includes("Connection to Redis in module 'event-bus-redis' established"))).toBe(true)
      expect(lines.some((line) => line.includes('Connection to Redis in "locking-redis" provider established'))).toBe(true)
      expect(lines.some((line) => line.includes("redisUrl not found"))).toBe(false)
    }
  })

  it("a hosted card page paid at the sandbox, the shopper never returning: one process places and captures the order, the other skips its copy", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }
    const reads = await transactionReads(store.sandbox)

    const location = await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    expect(location).toMatch(/\/checkout\/hosted\/return$/)

    const payments = await capturedPaymentsOfCartOrder(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(Number(payments[0].amount)).toBe(cart.total)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    expectTakenInAndQueued(store, marks, "/hooks/payment/hosted-checkout_hosted-checkout")
    // Both processes tried the delivery; the one that lost the claim skipped it without reading the service.
    const key = `${session.data.transactionId}:charged`
    await waitFor(async () => skippedCopies(store, marks, key).length > 0, "the second copy to be skipped")
    expect(skippedCopies(store, marks, key)).toHaveLength(1)
    expect((await transactionReads(store.sandbox)) - reads).toBe(1)
  })

  it("an embedded card payment confirmed in the storefront, the shopper never returning, ends with one captured order too", async () => {
    const store = shop.current
    const cart = await shopperCart(store, 1)
    const { session } = await startSession(store, cart.id, EMBEDDED_PROVIDER_ID)
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }

    const confirmed = await confirmCard(store.sandbox, session.data.clientSecret, SUCCESS_CARD)
    expect(confirmed.status).toBe(200)

    const payments = await capturedPaymentsOfCartOrder(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(Number(payments[0].amount)).toBe(cart.total)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    expectTakenInAndQueued(store, marks, "/hooks/payment/embedded-card_embedded-card")
  })

  it("while the worker is down, the server handles the notification it took in; the restarted worker skips its queued copy", async () => {
    const store = shop.current
    const cart = await shopperCart(store, 2)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    await store.stopProcess("worker")
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }

    await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    const payments = await capturedPaymentsOfCartOrder(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0 })

    await store.startProcess("worker")
    const key = `${session.data.transactionId}:charged`
    await waitFor(async () => linesSince(store.logs.worker, marks.worker).some((line) => line.includes(key) && line.includes(SKIPPED)), "the worker to skip its copy")
    expect(await paymentsOfCartOrder(store, cart.id)).toHaveLength(1)
  })

  it("a notification the server could not handle while the worker is down waits in Redis, and the restarted worker places the order", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    await store.stopProcess("worker")
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }
    // More failed reads than the client's retries: the server's own attempt fails.
    await control(store.sandbox, "POST", "/faults", { kind: "http500", endpoint: "GET /transactions/{id}", count: 3 })
    try {
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      const key = `${session.data.transactionId}:charged`
      await waitFor(async () => linesSince(store.logs.server, marks.server).some((line) => line.includes(key) && line.includes("not handled yet")), "the server's attempt to fail")
    } finally {
      await control(store.sandbox, "DELETE", "/faults")
    }
    expect(await paymentsOfCartOrder(store, cart.id)).toEqual([])

    await store.startProcess("worker")
    const payments = await capturedPaymentsOfCartOrder(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0 })
    expectTakenInAndQueued(store, marks, "/hooks/payment/hosted-checkout_hosted-checkout")
  })
})
