import { card, control, HOOK_PATH, payPage, PROVIDER_ID, PROVIDER_KEY, SUCCESS_CARD, transactionReads, waitFor } from "../helpers/hosted-store"
import { linesSince, paymentsOfCartOrder, type Role, shopperCart, startSession, useProductionStore } from "../helpers/production-store"

/**
 * The event pipeline across processes: a delivery's "done" marker lives in the
 * store's database (the `tw_payment_sweep` module's `tw_delivery_marker`), not
 * in a process's memory. (The scheduled reconciliation is off here: it would
 * settle the payment by itself, with reads of its own.)
 */
jest.setTimeout(300_000)
const shop = useProductionStore({ env: { TW_RECONCILIATION: "off" } })

describe("production profile: the event pipeline", () => {
  it("a delivery another process has marked done is skipped by the server and the worker; once the marker is gone, a repeat of it places the order", async () => {
    const store = shop.current
    const cart = await shopperCart(store)
    const { session } = await startSession(store, cart.id, PROVIDER_ID)
    // What another process's "done" marker of this delivery looks like in the store's database.
    const marker = `delivery:${PROVIDER_KEY}:${session.data.transactionId}:charged`
    try {
      await store.sql("insert into tw_delivery_marker (id, expires_at) values ($1, now() + interval '10 minutes')", [marker])
      const marks = { server: store.logs.server.length, worker: store.logs.worker.length }
      const before = await transactionReads(store.sandbox)

      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      const skipped = (role: Role) => linesSince(store.logs[role], marks[role]).some((line) => line.includes(`${session.data.transactionId}:charged`) && line.includes("skipped"))
      await waitFor(async () => skipped("server") && skipped("worker"), "both processes to skip the claimed delivery", 60_000)
      expect((await transactionReads(store.sandbox)) - before).toBe(0)
      expect(await paymentsOfCartOrder(store, cart.id)).toEqual([])

      // Gone (expired, or never set, as after a handler that failed): the service's next try of the same notification is handled.
      await store.sql("delete from tw_delivery_marker where id = $1", [marker])
      const { notifications } = await control(store.sandbox, "GET", "/notifications?purpose=charge")
      const sent = (notifications as Array<{ body: { id?: string } }>).find((n) => n.body.id === session.data.transactionId)
      const repeat = await fetch(`${store.url}${HOOK_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sent!.body) })
      expect(repeat.status).toBe(200)
      const payments = await waitFor(
        async () => {
          const found = await paymentsOfCartOrder(store, cart.id)
          return found.length && found.every((p) => p.captured_at) ? found : undefined
        },
        "the order placed from the repeated notification",
        90_000
      )
      expect(payments).toHaveLength(1)
      expect(payments[0]).toMatchObject({ captures: 1, refunds: 0 })
      expect((await transactionReads(store.sandbox)) - before).toBe(1)
    } finally {
      await store.sql("delete from tw_delivery_marker where id = $1", [marker])
    }
  })
})
