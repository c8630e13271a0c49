import Redis from "ioredis"
import { card, control, payPage, PROVIDER_ID, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { linesSince, paymentsOfCartOrder, shopperCart, startSession, useProductionStore } from "../helpers/production-store"

/**
 * A crash in the middle of core's cart completion: the order is placed, the
 * payment is not yet recorded, and nothing undoes the order (a SIGKILL runs no
 * compensation). The scheduled reconciliation, in the worker, finds the order
 * once no completion can still be placing it and settles it by the service:
 * an unpaid page's order is cancelled, a paid one's gets its captured payment
 * (chaos N=1000, production, seed 17: I2 "orders whose payment state does not
 * match the service").
 */
jest.setTimeout(600_000)
const shop = useProductionStore()

describe("production profile: a completion cut short by a crash", () => {
  it("leaves no order without its payment: the unpaid page's order is cancelled, the paid page's is captured, once", async () => {
    const store = shop.current
    const unpaid = await shopperCart(store)
    const paid = await shopperCart(store)
    const unpaidSession = (await startSession(store, unpaid.id, PROVIDER_ID)).session
    const paidSession = (await startSession(store, paid.id, PROVIDER_ID)).session
    // No notification of the payment: the store learns of it only by reading.
    await control(store.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })

    // Both completions place their orders, then wait on the stock's lock (held here, as another checkout
    // would, for less than core's 5 s wait) before recording their payments. Meanwhile one page is paid
    // (a run of the job would wait on the cart's lock), and the server is killed.
    const [{ inventory_item_id: stockKey }] = await store.sql<{ inventory_item_id: string }>(
      "select inventory_item_id from product_variant_inventory_item where variant_id = $1 and deleted_at is null",
      [store.store.variantIds[0]]
    )
    const redis = new Redis(store.redisUrl)
    const ordersOf = (cartIds: string[]) =>
      store.sql<{ cart_id: string; id: string; status: string }>(
        `select oc.cart_id, o.id, o.status from order_cart oc join "order" o on o.id = oc.order_id
          where oc.cart_id = any($1) and oc.deleted_at is null and o.deleted_at is null`,
        [cartIds]
      )
    try {
      await redis.set(`medusa_lock:${stockKey}`, "another-checkout", "EX", 120)
      const completions = [unpaid.id, paid.id].map((id) => store.api("POST", `/store/carts/${id}/complete`, {}, { allowError: true }).catch(() => undefined))
      await waitFor(async () => (await ordersOf([unpaid.id, paid.id])).length === 2 || undefined, "both completions' orders", 60_000)
      await payPage(paidSession.data.checkoutUrl, card(SUCCESS_CARD))
      await store.kill("server")
      await Promise.all(completions)
    } finally {
      await redis.del(`medusa_lock:${stockKey}`)
      await redis.quit()
    }
    // What the crash left: two orders, neither with a payment, one of them paid for at the service.
    expect(await ordersOf([unpaid.id, paid.id])).toHaveLength(2)
    expect(await paymentsOfCartOrder(store, unpaid.id)).toEqual([])
    expect(await paymentsOfCartOrder(store, paid.id)).toEqual([])
    expect(await control(store.sandbox, "GET", `/transactions/${paidSession.data.transactionId}`)).toMatchObject({ status: "charged" })
    const workerMark = store.logs.worker.length
    await store.startProcess("server")

    // The carts' locks the killed server held expire after two minutes; the job then settles both orders.
    const settled = await waitFor(
      async () => {
        const orders = await ordersOf([unpaid.id, paid.id])
        const payments = await paymentsOfCartOrder(store, paid.id)
        const unpaidOrder = orders.find((o) => o.cart_id === unpaid.id)
        return unpaidOrder?.status === "canceled" && payments.some((p) => p.captured_at) ? { orders, payments } : undefined
      },
      "the reconciliation to cancel the unpaid order and capture the paid one",
      420_000
    )
    expect(settled.orders).toHaveLength(2)
    expect(settled.orders.find((o) => o.cart_id === paid.id)?.status).not.toBe("canceled")
    expect(settled.payments).toHaveLength(1)
    expect(settled.payments[0]).toMatchObject({ captures: 1, refunds: 0 })
    expect(await paymentsOfCartOrder(store, unpaid.id)).toEqual([])
    // The merchant is told of both: the cancelled order, and the paid one to check for its stock's reservation.
    const logged = linesSince(store.logs.worker, workerMark)
    const orderOf = (cartId: string) => settled.orders.find((o) => o.cart_id === cartId)!.id
    expect(logged.some((line) => line.includes(`cancelled order ${orderOf(unpaid.id)}`) && line.includes("never made, and the completion that placed the order was cut short"))).toBe(true)
    expect(logged.some((line) => line.includes(`order ${orderOf(paid.id)} was placed by a completion cut short`))).toBe(true)

    // The service agrees: the paid page holds its money (not refunded), the unpaid one took none.
    const paidTx = await control(store.sandbox, "GET", `/transactions/${paidSession.data.transactionId}`)
    expect(paidTx).toMatchObject({ status: "charged" })
    expect(paidTx.refundAmount ?? 0).toBe(0)
    const unpaidTx = await control(store.sandbox, "GET", `/transactions/${unpaidSession.data.transactionId}`)
    expect(["initiated", "failed", "cancelled"]).toContain(unpaidTx.status)
  })
})
