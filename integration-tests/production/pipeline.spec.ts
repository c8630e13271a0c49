import Redis from "ioredis"
import { card, control, payPage, PROVIDER_ID, PROVIDER_KEY, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { linesSince, paymentsOfCartOrder, shopperCart, startSession, useProductionStore, type ProductionStore } from "../helpers/production-store"

/**
 * The event pipeline across processes: delivery claims live in Redis (not in
 * a process's memory), and the reconciliation job, in the worker, completes
 * what no delivery did.
 */
jest.setTimeout(300_000)
const shop = useProductionStore()

const transactionReads = async (store: ProductionStore) => {
  const { apiCalls } = await control(store.sandbox, "GET", "/api-calls?api=hosted")
  return (apiCalls as Array<{ endpoint: string; calls: number }>).filter((c) => c.endpoint === "GET /transactions/{id}").reduce((n, c) => n + c.calls, 0)
}

describe("production profile: the event pipeline", () => {
  it("a delivery another process has claimed is skipped by the worker; once given back, reconciliation places the order", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    const redis = new Redis(store.redisUrl)
    // What another process's claim of this delivery looks like in Redis locking.
    const claim = `medusa_lock:medusa-payment-tw:delivery:${PROVIDER_KEY}:${session.data.transactionId}:charged`
    try {
      await redis.set(claim, "another-process", "EX", 600)
      const mark = store.logs.worker.length
      const serverMark = store.logs.server.length
      const before = await transactionReads(store)

      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await waitFor(
        async () => linesSince(store.logs.worker, mark).some((line) => line.includes(`${session.data.transactionId}:charged`) && line.includes("skipped")),
        "the worker to skip the claimed delivery",
        60_000
      )
      expect((await transactionReads(store)) - before).toBe(0)
      expect(await paymentsOfCartOrder(store, cart.id)).toEqual([])

      // Given back (as a handler that failed does): the scheduled reconciliation, run by the worker, settles it.
      await redis.del(claim)
      const payments = await waitFor(
        async () => {
          const found = await paymentsOfCartOrder(store, cart.id)
          return found.length && found.every((p) => p.captured_at) ? found : undefined
        },
        "the order placed by the reconciliation",
        150_000
      )
      expect(payments).toHaveLength(1)
      expect(payments[0]).toMatchObject({ captures: 1, refunds: 0 })
      expect(linesSince(store.logs.worker, mark).some((line) => line.includes("reconciled"))).toBe(true)
      expect(linesSince(store.logs.server, serverMark).some((line) => line.includes("reconciled"))).toBe(false)
    } finally {
      await redis.quit()
    }
  })
})
