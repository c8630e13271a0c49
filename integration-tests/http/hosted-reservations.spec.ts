import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import seedDemo from "../../scripts/demo/seed"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import reconcileTwSubscriptions from "../../src/jobs/reconcile-tw-subscriptions"
import { processTwPaymentWorkflow } from "../../src/workflows"
import {
  adminToken,
  capturedOrder,
  card,
  completeCart,
  confirmCard,
  control,
  EMBEDDED_PROVIDER_ID,
  EMBEDDED_PROVIDER_KEY,
  HOOK_PATH,
  orderOfCart,
  payPage,
  PROVIDER_ID,
  PROVIDER_KEY,
  settle,
  startPayment,
  SUCCESS_CARD,
  useSandbox,
  waitFor,
  type Store,
} from "../helpers/hosted-store"
import { watchStore } from "../helpers/settle"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
const env = useSandbox()

/**
 * A stocked product (the demo seed's inventory): a convenience-store code
 * reserves stock while payment is awaited and its expiry gives the stock back;
 * a paid cart whose completion fails on the stock's lock is completed again,
 * never refunded.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      await control(env.sandbox, "POST", "/reset")
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${api.defaults.baseURL}${HOOK_PATH}` })
      await seedDemo({ container: getContainer(), args: [] } as unknown as ExecArgs)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: keys } = await query.graph({ entity: "api_key", fields: ["token"], filters: { type: "publishable" } })
      store = { regionId: "", salesChannelId: "", publishableKey: keys[0].token, headers: { "x-publishable-api-key": keys[0].token } }
    })

    const reservedQuantity = async (inventoryItemId: string) => {
      const inventory = getContainer().resolve(Modules.INVENTORY)
      const reservations = await inventory.listReservationItems({ inventory_item_id: inventoryItemId })
      return reservations.reduce((sum, r) => sum + Number(r.quantity), 0)
    }

    /** A cart of `quantity` oolong tea (a stocked variant) with a shipping method. */
    async function stockedCart(quantity: number) {
      const { data: regions } = await api.get("/store/regions", { headers: store.headers })
      const region = regions.regions.find((r: { name: string }) => r.name === "Taiwan")
      const { data: products } = await api.get(`/store/products?region_id=${region.id}&fields=*variants,+variants.inventory_items.inventory_item_id`, { headers: store.headers })
      const variant = products.products.find((p: { handle: string }) => p.handle === "oolong-tea").variants[0]
      const inventoryItemId: string = variant.inventory_items[0].inventory_item_id

      const { data: created } = await api.post(
        "/store/carts",
        {
          region_id: region.id,
          email: "shopper@example.test",
          items: [{ variant_id: variant.id, quantity }],
          shipping_address: { first_name: "Mei", last_name: "Lin", address_1: "No. 7 Xinyi Rd", city: "Taipei", country_code: "tw", postal_code: "110", phone: "0912345678" },
        },
        { headers: store.headers }
      )
      const cartId: string = created.cart.id
      const { data: options } = await api.get(`/store/shipping-options?cart_id=${cartId}`, { headers: store.headers })
      await api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: options.shipping_options[0].id }, { headers: store.headers })

      return { cartId, inventoryItemId }
    }

    /** A new customer account, logged in, made the owner of the cart: its headers. */
    async function customerOf(cartId: string, email: string) {
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      const headers = { ...store.headers, authorization: `Bearer ${login.token}` }
      await api.post(`/store/carts/${cartId}/customer`, {}, { headers })
      return headers
    }

    it("an expired cvs code cancels the awaiting order and releases its reservation", async () => {
      const { cartId, inventoryItemId } = await stockedCart(2)
      const { session } = await startPayment(api, store, cartId, { methods: ["cvs"] }, PROVIDER_ID)
      await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
      expect((await completeCart(api, store, cartId)).data.type).toBe("order")
      expect(await reservedQuantity(inventoryItemId)).toBe(2)

      await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/expire`)
      await waitFor(async () => (await orderOfCart(getContainer(), cartId))?.status === "canceled", "the order cancelled after expiry")
      expect(await reservedQuantity(inventoryItemId)).toBe(0)
    })

    it("a paid cart whose completion times out on the stock's lock is completed on the next attempt, never refunded", async () => {
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { session } = await startPayment(api, store, cartId, {}, PROVIDER_ID)
      const container = getContainer()
      const locking = container.resolve(Modules.LOCKING)
      const warn = jest.spyOn(container.resolve(ContainerRegistrationKeys.LOGGER), "warn")
      // Another checkout holds the stock's lock past core's 5 s wait: the first completion fails and is rolled back.
      await locking.acquire(inventoryItemId, { ownerId: "another-checkout", expire: 120 })
      try {
        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        await waitFor(
          async () => warn.mock.calls.some(([message]) => String(message).includes(`completing paid cart ${cartId} failed (attempt 1)`)),
          "the first completion to fail",
          60_000
        )
        expect(await orderOfCart(container, cartId)).toBeUndefined()
      } finally {
        await locking.release(inventoryItemId, { ownerId: "another-checkout" })
        warn.mockRestore()
      }

      const order = await capturedOrder(container, cartId)
      expect(order.payment_collections![0]!.payments).toHaveLength(1)
      expect(order.payment_collections![0]!.payments![0]!.refunds ?? []).toHaveLength(0)
      expect(await reservedQuantity(inventoryItemId)).toBe(1)
      const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
      expect(tx.status).toBe("charged")
      expect(tx.refundAmount ?? 0).toBe(0)
    })

    it("a payment read while the shopper's completion is being rolled back waits for it: nothing is authorized for the order that never was (money model, seed 777)", async () => {
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { session } = await startPayment(api, store, cartId, {}, PROVIDER_ID)
      const container = getContainer()
      // No notification: the run below is the only handling of the payment.
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))

      // The shopper's completion creates its order, then waits on the stock's lock held here past core's 5 s,
      // and is rolled back: for those seconds the cart has an order that will not exist.
      const locking = container.resolve(Modules.LOCKING)
      await locking.acquire(inventoryItemId, { ownerId: "another-checkout", expire: 60 })
      let run: ReturnType<ReturnType<typeof processTwPaymentWorkflow>["run"]>
      try {
        const completion = completeCart(api, store, cartId).then(
          (answer) => answer.status,
          (error) => error.response?.status
        )
        await waitFor(async () => !!(await orderOfCart(container, cartId)), "the completion's order")
        run = processTwPaymentWorkflow(container).run({ input: { provider: PROVIDER_KEY, serviceId: session.data.transactionId } })
        // Core answers its lock's time-out with a 500.
        expect(await completion).toBe(500)
      } finally {
        await locking.release(inventoryItemId, { ownerId: "another-checkout" })
      }
      await run!

      // The run decided once the completion was over: it placed the order itself, with the one captured payment.
      const order = await capturedOrder(container, cartId)
      const payments = container.resolve(Modules.PAYMENT)
      const captured = (await payments.listPayments({ payment_session_id: session.id } as never, { relations: ["captures"] })).filter((p) => p.captures?.length)
      expect(captured.map((p) => p.id)).toEqual([order.payment_collections![0]!.payments![0]!.id])
      const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
      expect(tx.status).toBe("charged")
    })

    it("a paid cart the store cannot fulfil (the stock sold out meanwhile) is refunded, not kept and forgotten", async () => {
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { session } = await startPayment(api, store, cartId, {}, PROVIDER_ID)
      const inventory = getContainer().resolve(Modules.INVENTORY)
      const levels = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId })
      await inventory.updateInventoryLevels(levels.map((level) => ({ inventory_item_id: inventoryItemId, location_id: level.location_id, stocked_quantity: 0 })))

      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      const refunded = await waitFor(async () => {
        const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
        return tx.refundAmount ? tx : undefined
      }, "the refund of the payment the store cannot fulfil")
      expect(refunded.refundAmount).toBe(session.data.amount)
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()

      // The next read records the refund: the session is no longer one to reconcile.
      await reconcileTwPayments(getContainer(), { force: true })
      const payments = getContainer().resolve(Modules.PAYMENT)
      const [stored] = await payments.listPaymentSessions({ id: session.id })
      expect(stored.data).toMatchObject({ status: refunded.status, refundAmount: session.data.amount })
      expect(["refunding", "refunded"]).toContain(refunded.status)
      expect(await reservedQuantity(inventoryItemId)).toBe(0)
    })

    it("money given back never becomes a captured order: the refunded cart's completion is refused once stock is back (I2)", async () => {
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { session } = await startPayment(api, store, cartId, {}, PROVIDER_ID)
      const inventory = getContainer().resolve(Modules.INVENTORY)
      const setStock = async (quantity: number) => {
        const levels = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId })
        await inventory.updateInventoryLevels(levels.map((level) => ({ inventory_item_id: inventoryItemId, location_id: level.location_id, stocked_quantity: quantity })))
      }
      await setStock(0)
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await waitFor(async () => (await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).refundAmount, "the refund of the payment the store cannot fulfil")

      // The merchant restocks within the sealed read's lifetime; the shopper comes back and completes.
      await setStock(5)
      const completed = await completeCart(api, store, cartId)
      expect(completed.data.type).not.toBe("order")
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
      const payments = getContainer().resolve(Modules.PAYMENT)
      const [stored] = await payments.listPaymentSessions({ id: session.id }, { relations: ["payment"] })
      expect(stored.payment ?? null).toBeNull()
      expect(stored.data?.attestation ?? null).toBeNull()
      expect((await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).status).toBe("refunded")
    })

    it("money given back never becomes a captured order with the card form either: a fully refunded intent still reads succeeded, and neither the reconciliation nor the completion places an order once stock is back (I1, I2; money model, seed 20261147)", async () => {
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { session } = await startPayment(api, store, cartId, {}, EMBEDDED_PROVIDER_ID)
      const inventory = getContainer().resolve(Modules.INVENTORY)
      const setStock = async (quantity: number) => {
        const levels = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId })
        await inventory.updateInventoryLevels(levels.map((level) => ({ inventory_item_id: inventoryItemId, location_id: level.location_id, stocked_quantity: quantity })))
      }
      await setStock(0)
      await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS_CARD)
      // The webhook, as the pipeline runs it: the store cannot place the order, so the money goes back.
      await processTwPaymentWorkflow(getContainer()).run({ input: { provider: EMBEDDED_PROVIDER_KEY, serviceId: session.data.paymentIntentId } }).catch(() => undefined)
      const refunds = async () =>
        ((await control(env.sandbox, "GET", "/refunds")).refunds as Array<{ paymentIntentId: string; amount: number }>).filter((r) => r.paymentIntentId === session.data.paymentIntentId)
      await waitFor(async () => (await refunds()).length > 0, "the refund of the payment the store cannot fulfil")

      // The merchant restocks (in the model: cancels the order that took the last unit); the job reads the intent again.
      await setStock(5)
      await reconcileTwPayments(getContainer(), { force: true })
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
      const completed = await completeCart(api, store, cartId)
      expect(completed.data.type).not.toBe("order")
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
      const [stored] = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ id: session.id }, { relations: ["payment"] })
      expect(stored.payment ?? null).toBeNull()
      // The session keeps what was given back, unsealed, so any read older than the refund is seen as older.
      expect(stored.data).toMatchObject({ status: "succeeded", refundAmount: session.data.amount, attestation: null })
      expect((await refunds()).map((r) => r.amount)).toEqual([session.data.amount])
    })

    it("a subscription whose first order cannot be placed (out of stock) is refunded and ended at the service too: no later period is charged (I3)", async () => {
      const container = getContainer()
      watchStore(container, env.sandbox)
      const admin = await adminToken(api, container)
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { data: cart } = await api.get(`/store/carts/${cartId}`, { headers: store.headers })
      const variantId: string = cart.cart.items[0].variant_id
      const { data: plan } = await api.post(`/admin/product-variants/${variantId}/tw-subscription-plans`, { title: "Monthly tea", kind: "monthly" }, { headers: admin })

      // The cart becomes a logged-in customer's, who starts the subscription checkout.
      const headers = await customerOf(cartId, "stock-sub@example.test")
      const { data: started } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: plan.plan.id }, { headers })
      const sessionId: string = started.payment_session.id

      const inventory = container.resolve(Modules.INVENTORY)
      const levels = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId })
      await inventory.updateInventoryLevels(levels.map((level) => ({ inventory_item_id: inventoryItemId, location_id: level.location_id, stocked_quantity: 0 })))
      await payPage(started.payment_session.data.checkoutUrl, card(SUCCESS_CARD))

      const serviceSubscriptions = async () => {
        const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${sessionId}`)
        const hids = new Set((transactions as Array<{ subscriptionId?: string }>).map((t) => t.subscriptionId).filter(Boolean))
        return ((await control(env.sandbox, "GET", "/subscriptions")).subscriptions as Array<{ id: string; status: string }>).filter((s) => hids.has(s.id))
      }
      await waitFor(async () => (await control(env.sandbox, "GET", `/transactions/${started.payment_session.data.transactionId}`)).status === "refunded", "period 1 refunded")
      const ended = await waitFor(async () => {
        const subs = await serviceSubscriptions()
        return subs.length === 1 && subs[0].status === "cancelled" ? subs : undefined
      }, "the service's subscription cancelled")
      expect(ended).toHaveLength(1)
      const { data: mine } = await api.get(`/store/customers/me/tw-subscriptions/${started.subscription.id}`, { headers })
      expect(mine.subscription).toMatchObject({ status: "cancelled", first_order_id: null })
      expect(await orderOfCart(container, cartId)).toBeUndefined()

      // A month on: nothing more is charged.
      await control(env.sandbox, "POST", "/clock/advance", { seconds: 32 * 24 * 3600 })
      await settle()
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${sessionId}`)
      expect((transactions as Array<{ status: string }>).map((t) => t.status)).toEqual(["refunded"])
    })

    it("a renewal the store cannot place (out of stock) is refunded, once, also when the first refund fails at the service; the subscription goes on and a later period with stock gets its order (I1, I5; money model, seed 2026)", async () => {
      const container = getContainer()
      watchStore(container, env.sandbox)
      const admin = await adminToken(api, container)
      const { cartId, inventoryItemId } = await stockedCart(1)
      const { data: cart } = await api.get(`/store/carts/${cartId}`, { headers: store.headers })
      const { data: plan } = await api.post(`/admin/product-variants/${cart.cart.items[0].variant_id}/tw-subscription-plans`, { title: "Monthly tea", kind: "monthly" }, { headers: admin })
      const headers = await customerOf(cartId, "renewal-stock@example.test")
      const { data: started } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: plan.plan.id }, { headers })
      const subscriptionId: string = started.subscription.id
      await payPage(started.payment_session.data.checkoutUrl, card(SUCCESS_CARD))
      const mine = async () => (await api.get(`/store/customers/me/tw-subscriptions/${subscriptionId}`, { headers })).data.subscription
      await waitFor(async () => {
        const s = await mine()
        return s.status === "active" && s.first_order_id && s.service_subscription_id
      }, "the active subscription with its first order")

      const inventory = container.resolve(Modules.INVENTORY)
      const stock = async (available: number) => {
        const levels = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId })
        await inventory.updateInventoryLevels(
          levels.map((level) => ({ inventory_item_id: inventoryItemId, location_id: level.location_id, stocked_quantity: Number(level.reserved_quantity) + available }))
        )
      }
      const periods = async () => {
        const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${started.payment_session.id}`)
        return (transactions as Array<{ origin: string; status: string; transactionHid: string }>).filter((t) => t.origin === "recurring")
      }
      const renewals = async () => {
        const query = container.resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "tw_subscription", fields: ["orders.id", "orders.metadata"], filters: { id: subscriptionId } })
        return ((data[0] as { orders?: Array<{ metadata: Record<string, unknown> | null }> }).orders ?? []).filter((o) => o?.metadata?.tw_transaction_hid)
      }

      // Month 2, nothing in stock, and the service refuses the refund (a 500, nothing done): the period stays paid.
      await stock(0)
      await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /refunds/{transactionHid}", applied: false, count: 100 })
      await control(env.sandbox, "POST", "/clock/advance", { seconds: 32 * 24 * 3600 })
      await settle()
      await waitFor(async () => (await periods()).length === 1 || undefined, "period 2 charged")
      await reconcileTwSubscriptions(container, { force: true })
      await settle()
      expect((await periods()).map((t) => t.status)).toEqual(["charged"])
      expect(await renewals()).toHaveLength(0)

      // Once the service takes refunds again, the next reconciliation returns the money, and never tries again.
      await control(env.sandbox, "DELETE", "/faults")
      await reconcileTwSubscriptions(container, { force: true })
      await settle()
      await waitFor(async () => (await periods()).some((t) => t.status === "refunded"), "period 2 refunded")
      await reconcileTwSubscriptions(container, { force: true })
      await settle()
      expect((await periods()).map((t) => t.status)).toEqual(["refunded"])
      expect(await renewals()).toHaveLength(0)
      expect(await mine()).toMatchObject({ status: "active" })

      // Month 3, back in stock: the period gets its renewal order, paid.
      await stock(5)
      await control(env.sandbox, "POST", "/clock/advance", { seconds: 31 * 24 * 3600 })
      await settle()
      const [renewal] = await waitFor(async () => {
        const found = await renewals()
        return found.length ? found : undefined
      }, "the renewal order of month 3")
      const paidPeriods = (await periods()).filter((t) => t.status === "charged")
      expect(paidPeriods).toHaveLength(1)
      expect(renewal.metadata?.tw_transaction_hid).toBe(paidPeriods[0].transactionHid)
    })
  },
})
