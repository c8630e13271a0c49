import Redis from "ioredis"
import { card, control, payPage, PROVIDER_ID, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { linesSince, paymentsOfCartOrder, shopperCart, startSession, useProductionStore } from "../helpers/production-store"

/**
 * A crash in the middle of core's cart completion: the order is placed, the
 * payment is not yet recorded, and nothing undoes the order (a SIGKILL runs no
 * compensation). The scheduled reconciliation, in the worker, finds the order
 * once no completion can still be placing it and settles it by the service:
 * an unpaid page's order is cancelled, a paid one's gets the stock
 * reservation core did not make and its captured payment (chaos N=1000,
 * production, seed 17: I2 "orders whose payment state does not match the
 * service"), and a paid one whose stock is gone meanwhile is cancelled and
 * its money returned.
 */
jest.setTimeout(600_000)
const shop = useProductionStore()

describe("production profile: a completion cut short by a crash", () => {
  it("leaves no order without its payment: the unpaid page's order is cancelled, a paid one reserved and captured once, the one without stock refunded", async () => {
    const store = shop.current
    const unpaid = await shopperCart(store)
    const paid = await shopperCart(store)
    const second = await shopperCart(store)
    const unpaidSession = (await startSession(store, unpaid.id, PROVIDER_ID)).session
    const paidSession = (await startSession(store, paid.id, PROVIDER_ID)).session
    const secondSession = (await startSession(store, second.id, PROVIDER_ID)).session
    const carts = [unpaid.id, paid.id, second.id]
    const paidCarts = [paid.id, second.id]
    // No notification of the payment: the store learns of it only by reading.
    await control(store.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })

    // The completions place their orders, then wait on the stock's lock (held here, as another checkout
    // would, for less than core's 5 s wait) before reserving it and recording their payments. Meanwhile two
    // pages are paid (a run of the job would wait on the cart's lock), and the server is killed.
    const [{ inventory_item_id: stockKey }] = await store.sql<{ inventory_item_id: string }>(
      "select inventory_item_id from product_variant_inventory_item where variant_id = $1 and deleted_at is null",
      [store.store.variantIds[0]]
    )
    const redis = new Redis(store.redisUrl)
    const reservationsOf = (cartIds: string[]) =>
      store.sql<{ cart_id: string; quantity: number }>(
        `select oc.cart_id, r.quantity::int as quantity from order_cart oc join order_item oi on oi.order_id = oc.order_id
          join reservation_item r on r.line_item_id = oi.item_id and r.deleted_at is null
          where oc.cart_id = any($1) and oc.deleted_at is null`,
        [cartIds]
      )
    const ordersOf = (cartIds: string[]) =>
      store.sql<{ cart_id: string; id: string; status: string }>(
        `select oc.cart_id, o.id, o.status from order_cart oc join "order" o on o.id = oc.order_id
          where oc.cart_id = any($1) and oc.deleted_at is null and o.deleted_at is null`,
        [cartIds]
      )
    try {
      await redis.set(`medusa_lock:${stockKey}`, "another-checkout", "EX", 120)
      const completions = carts.map((id) => store.api("POST", `/store/carts/${id}/complete`, {}, { allowError: true }).catch(() => undefined))
      await waitFor(async () => (await ordersOf(carts)).length === 3 || undefined, "the completions' orders", 60_000)
      await payPage(paidSession.data.checkoutUrl, card(SUCCESS_CARD))
      await payPage(secondSession.data.checkoutUrl, card(SUCCESS_CARD))
      await store.kill("server")
      await Promise.all(completions)
    } finally {
      await redis.del(`medusa_lock:${stockKey}`)
      await redis.quit()
    }
    // What the crash left: three orders, none with a payment or a reservation, two of them paid for at the service.
    expect(await ordersOf(carts)).toHaveLength(3)
    for (const cartId of carts) {
      expect(await paymentsOfCartOrder(store, cartId)).toEqual([])
    }
    expect(await reservationsOf(carts)).toEqual([])
    for (const session of [paidSession, secondSession]) {
      expect(await control(store.sandbox, "GET", `/transactions/${session.data.transactionId}`)).toMatchObject({ status: "charged" })
    }
    // Meanwhile the stock runs down to one unit: only one of the two paid orders can still have it.
    const levels = await store.sql(
      `update inventory_level set stocked_quantity = reserved_quantity + 1,
         raw_stocked_quantity = jsonb_build_object('value', (reserved_quantity + 1)::text, 'precision', 20)
       where inventory_item_id = $1 and deleted_at is null returning id`,
      [stockKey]
    )
    expect(levels).toHaveLength(1)
    const workerMark = store.logs.worker.length
    await store.startProcess("server")

    // The carts' locks the killed server held expire after two minutes; the job then settles the orders.
    const settled = await waitFor(
      async () => {
        const orders = await ordersOf(carts)
        const cancelled = orders.filter((o) => o.status === "canceled")
        return cancelled.length === 2 && cancelled.some((o) => o.cart_id === unpaid.id) ? orders : undefined
      },
      "the reconciliation to cancel the unpaid order and the paid one without stock",
      420_000
    )
    const orderOf = (cartId: string) => settled.find((o) => o.cart_id === cartId)!
    const kept = paidCarts.find((cartId) => orderOf(cartId).status !== "canceled")!
    const returned = paidCarts.find((cartId) => cartId !== kept)!
    const keptPayments = await waitFor(async () => {
      const payments = await paymentsOfCartOrder(store, kept)
      return payments.some((p) => p.captured_at) ? payments : undefined
    }, "the kept order's payment to be captured", 60_000)
    expect(keptPayments).toHaveLength(1)
    expect(keptPayments[0]).toMatchObject({ captures: 1, refunds: 0 })
    // The kept order has the reservation core's completion never made; the cancelled ones hold none.
    expect(await reservationsOf(carts)).toEqual([{ cart_id: kept, quantity: 1 }])
    expect(await paymentsOfCartOrder(store, unpaid.id)).toEqual([])
    expect((await paymentsOfCartOrder(store, returned)).filter((p) => p.captured_at)).toEqual([])

    // The merchant is told of both cancelled orders, each with its reason.
    const logged = linesSince(store.logs.worker, workerMark)
    expect(logged.some((line) => line.includes(`cancelled order ${orderOf(unpaid.id).id}`) && line.includes("never made, and the completion that placed the order was cut short"))).toBe(true)
    expect(logged.some((line) => line.includes(`cancelled order ${orderOf(returned).id}`) && line.includes("its stock is gone"))).toBe(true)

    // The service agrees: the kept order's page holds its money, the other paid page's went back, the unpaid one took none.
    const txOf = (cartId: string) => control(store.sandbox, "GET", `/transactions/${(cartId === paid.id ? paidSession : secondSession).data.transactionId}`)
    const keptTx = await txOf(kept)
    expect(keptTx).toMatchObject({ status: "charged" })
    expect(keptTx.refundAmount ?? 0).toBe(0)
    expect(await txOf(returned)).toMatchObject({ status: "refunded", refundAmount: paid.total })
    const unpaidTx = await control(store.sandbox, "GET", `/transactions/${unpaidSession.data.transactionId}`)
    expect(["initiated", "failed", "cancelled"]).toContain(unpaidTx.status)
  })
})
