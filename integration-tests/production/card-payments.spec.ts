import { card, confirmCard, EMBEDDED_PROVIDER_ID, payPage, PROVIDER_ID, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { linesSince, paymentsOfCartOrder, shopperCart, startSession, useProductionStore, type ProductionStore } from "../helpers/production-store"

/**
 * The production profile (Redis event bus, workflow engine and locking; one
 * server process and one worker process): payments whose shopper never comes
 * back are turned into orders by the worker, from the delivery the server took in.
 */
jest.setTimeout(300_000)
const shop = useProductionStore()

/** Core's Redis event bus prints this in the process that consumes the event. */
const CONSUMED_WEBHOOK = /Processing payment\.webhook_received\b/

async function capturedOrderOf(store: ProductionStore, cartId: string) {
  return waitFor(
    async () => {
      const payments = await paymentsOfCartOrder(store, cartId)
      return payments.length && payments.every((p) => p.captured_at) ? payments : undefined
    },
    "the cart's order with its payment captured",
    90_000
  )
}

/** The server took the delivery over HTTP and handed it on; only the worker consumed the event. */
function expectWorkerConsumed(store: ProductionStore, marks: { server: number; worker: number }, hookPath: string) {
  const server = linesSince(store.logs.server, marks.server)
  const worker = linesSince(store.logs.worker, marks.worker)
  expect(server.some((line) => line.includes(`POST ${hookPath}`))).toBe(true)
  expect(server.filter((line) => CONSUMED_WEBHOOK.test(line))).toEqual([])
  expect(worker.filter((line) => CONSUMED_WEBHOOK.test(line)).length).toBeGreaterThanOrEqual(1)
  expect(worker.some((line) => line.includes("/hooks/payment/"))).toBe(false)
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

  it("a hosted card page paid at the sandbox, the shopper never returning, ends with the order placed and captured by the worker", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }

    const location = await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    expect(location).toMatch(/\/checkout\/hosted\/return$/)

    const payments = await capturedOrderOf(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(Number(payments[0].amount)).toBe(cart.total)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    expectWorkerConsumed(store, marks, "/hooks/payment/hosted-checkout_hosted-checkout")
  })

  it("an embedded card payment confirmed in the storefront, the shopper never returning, ends the same way", async () => {
    const store = shop.current
    const cart = await shopperCart(store, 1)
    const { session } = await startSession(store, cart.id, EMBEDDED_PROVIDER_ID)
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }

    const confirmed = await confirmCard(store.sandbox, session.data.clientSecret, SUCCESS_CARD)
    expect(confirmed.status).toBe(200)

    const payments = await capturedOrderOf(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(Number(payments[0].amount)).toBe(cart.total)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0, canceled_at: null })
    expectWorkerConsumed(store, marks, "/hooks/payment/embedded-card_embedded-card")
  })

  it("a notification taken in while the worker is down waits in Redis, and the restarted worker places the order", async () => {
    const store = shop.current
    const cart = await shopperCart(store, 2)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    await store.stopProcess("worker")
    const marks = { server: store.logs.server.length, worker: store.logs.worker.length }

    await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
    await waitFor(async () => linesSince(store.logs.server, marks.server).some((line) => line.includes("POST /hooks/payment/hosted-checkout_hosted-checkout")), "the server to take in the notification")
    expect(await paymentsOfCartOrder(store, cart.id)).toEqual([])

    await store.startProcess("worker")
    const payments = await capturedOrderOf(store, cart.id)
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ captures: 1, refunds: 0 })
    expectWorkerConsumed(store, marks, "/hooks/payment/hosted-checkout_hosted-checkout")
  })
})
