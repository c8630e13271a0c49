import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { HostedCheckoutClient } from "../../src/lib/hosted"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import { checkTwPaymentsHealthWorkflow } from "../../src/workflows/health/check-tw-payments-health"
import {
  card,
  control,
  createCart,
  expectOneCapturedOrder,
  HOOK_PATH,
  orderOfCart,
  paymentsOf,
  payPage,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
// The scheduled reconciliation would settle what these tests leave unsettled on purpose; they run it themselves.
process.env.TW_RECONCILIATION = "off"
// The health rules judge the latest 2 orders (medusa-config.ts passes these as the plugin's `health` option).
process.env.TW_HEALTH_OPTIONS = JSON.stringify({ reconciledOrders: 2, minOrders: 2 })
const env = useSandbox()

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
    })

    const notificationsOf = async (transactionId: string) =>
      (await control(env.sandbox, "GET", "/notifications")).notifications.filter(
        (n: { body: { id?: string } }) => n.body.id === transactionId
      )

    async function paidWithoutReturn(amount: number) {
      const cart = await createCart(getContainer(), store, amount)
      const started = await startPayment(api, store, cart.id)
      await payPage(started.session.data.checkoutUrl, card(SUCCESS_CARD))
      return { cart, ...started }
    }

    describe("notification faults: exactly one order and one capture", () => {
      it("duplicated notifications", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "duplicate", purpose: "charge", count: 5 })
        const { cart, collectionId, session } = await paidWithoutReturn(1100)
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
        expect((await notificationsOf(session.data.transactionId)).length).toBeGreaterThanOrEqual(2)
      })

      it("reordered notifications (cvs: `charged` delivered before `charging`)", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "reorder", purpose: "charge", count: 1 })
        const cart = await createCart(getContainer(), store, 640)
        const { collectionId, session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      })

      it("a dropped notification is recovered by the reconciliation job, through the same workflow", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
        const { cart, collectionId, session } = await paidWithoutReturn(980)
        await settle()
        // Every notification about the payment was dropped: none reached the store.
        const sent = await notificationsOf(session.data.transactionId)
        expect(sent.length).toBeGreaterThan(0)
        expect(sent.every((n: { state: string }) => n.state === "dropped")).toBe(true)

        // The scheduled job (every minute) may already have recovered it; an explicit run must too.
        await reconcileTwPayments(getContainer(), { force: true })
        await expectOneCapturedOrder(getContainer(), cart.id, collectionId)

        // Running it again (or a late notification) changes nothing.
        await reconcileTwPayments(getContainer(), { force: true })
        expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(1)
      })

      it("notifications dropped: the health warning starts once, with one log line and one hook run, and clears once they flow again", async () => {
        const changes: Array<{ started: Array<{ rule: string }>; cleared: string[] }> = []
        checkTwPaymentsHealthWorkflow.hooks.paymentsHealthChanged((payload) => {
          changes.push(payload)
        })
        const warn = jest.spyOn(getContainer().resolve(ContainerRegistrationKeys.LOGGER), "warn")
        const check = async () => (await checkTwPaymentsHealthWorkflow(getContainer()).run({ input: {} })).result.active.map((warning) => warning.rule)
        try {
          await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 20 })
          const dropped = [await paidWithoutReturn(810), await paidWithoutReturn(820)]
          await settle()
          await reconcileTwPayments(getContainer(), { force: true })
          for (const { cart, collectionId } of dropped) {
            await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
          }
          expect(await check()).toEqual(["notifications_missing"])
          expect(await check()).toEqual(["notifications_missing"])
          expect(changes).toEqual([{ started: [{ rule: "notifications_missing", figure: 100, threshold: 50 }], cleared: [], active: [{ rule: "notifications_missing", figure: 100, threshold: 50 }] }])
          const started = warn.mock.calls.filter(([line]) => String(line).startsWith("medusa-payment-tw health: notifications_missing started"))
          expect(started).toHaveLength(1)
          expect(String(started[0][0])).toContain("notifications are not reaching /hooks/payment/")

          // Notifications flow again: the next orders are placed by them, and the warning clears.
          await control(env.sandbox, "DELETE", "/faults")
          for (const amount of [830, 840]) {
            const { cart, collectionId } = await paidWithoutReturn(amount)
            await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
          }
          await settle()
          expect(await check()).toEqual([])
          expect(changes).toHaveLength(2)
          expect(changes[1]).toEqual({ started: [], cleared: ["notifications_missing"], active: [] })
        } finally {
          warn.mockRestore()
        }
      })

      it("reconciliation also recovers a dropped cvs expiry and cancels the awaiting order", async () => {
        const cart = await createCart(getContainer(), store, 560)
        const { session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
        await waitFor(() => orderOfCart(getContainer(), cart.id), "the awaiting order")
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/expire`)
        await settle()
        const sent = await notificationsOf(session.data.transactionId)
        expect(sent.some((n: { state: string; body: { status?: string } }) => n.body.status === "failed" && n.state === "dropped")).toBe(true)

        await reconcileTwPayments(getContainer(), { force: true })
        const order = await orderOfCart(getContainer(), cart.id)
        expect(order!.status).toBe("canceled")
      })
    })

    describe("forged notifications change nothing", () => {
      it("an unknown transaction id", async () => {
        const cart = await createCart(getContainer(), store, 700)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        const forged = {
          purpose: "charge",
          id: "ZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
          transactionId: "ZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
          transactionHid: "P20261121ZZZZZZZZ",
          merchantId: env.sandbox.defaultMerchant.merchantId,
          status: "charged",
          success: true,
          amount: 700,
          customId: session.id,
        }
        expect((await api.post(HOOK_PATH, forged)).status).toBe(200)
        await settle()
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
        expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
      })

      it("a notification that claims `charged` for an unpaid transaction of ours", async () => {
        const cart = await createCart(getContainer(), store, 700)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        const forged = {
          purpose: "charge",
          id: session.data.transactionId,
          transactionId: session.data.transactionId,
          transactionHid: session.data.transactionHid,
          merchantId: env.sandbox.defaultMerchant.merchantId,
          status: "charged",
          success: true,
          amount: 700,
          customId: session.id,
        }
        await api.post(HOOK_PATH, forged)
        await settle()
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
        expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
      })

      it("a paid transaction of another merchant naming our session", async () => {
        await control(env.sandbox, "POST", "/merchants", { merchantId: "other-shop", token: "other-shop-token-0000000001" })
        const cart = await createCart(getContainer(), store, 700)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        const other = new HostedCheckoutClient({
          apiToken: "other-shop-token-0000000001",
          merchantId: "other-shop",
          baseUrl: env.sandbox.hostedBaseUrl,
          checkoutHost: env.sandbox.checkoutHost,
        })
        const created = await other.checkouts.create({
          amount: 700,
          orderId: session.id,
          customId: session.id,
          successUrl: null,
          failureUrl: null,
          productDetails: [{ productionCode: "X", description: "x", quantity: 1, unit: "x", unitPrice: 700 }],
        })
        await other.close()
        await payPage(created.page.url, card(SUCCESS_CARD))
        const tx = await control(env.sandbox, "GET", `/transactions/${created.id}`)
        await api.post(HOOK_PATH, { purpose: "charge", id: created.id, transactionId: created.id, transactionHid: tx.transactionHid, merchantId: "other-shop", status: "charged", success: true, customId: session.id })
        await settle()
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
        expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
      })

      it("a paid transaction of ours with another amount for the session is not accepted (and is refunded)", async () => {
        const cart = await createCart(getContainer(), store, 700)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        const client = new HostedCheckoutClient({
          apiToken: env.sandbox.defaultMerchant.token,
          merchantId: env.sandbox.defaultMerchant.merchantId,
          baseUrl: env.sandbox.hostedBaseUrl,
          checkoutHost: env.sandbox.checkoutHost,
        })
        // 350 TWD: enough collected for the service to accept the refund (it refuses below 200).
        const cheaper = await client.checkouts.create({
          amount: 350,
          orderId: session.id,
          customId: session.id,
          successUrl: null,
          failureUrl: null,
          productDetails: [{ productionCode: "X", description: "x", quantity: 1, unit: "x", unitPrice: 350 }],
        })
        await payPage(cheaper.page.url, card(SUCCESS_CARD))
        await settle()
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
        expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
        const after = await client.transactions.retrieve(cheaper.id)
        await client.close()
        expect(after.status).toBe("refunded")
      })
    })

    describe("replaced sessions", () => {
      it("a late payment of a replaced session's page is refunded automatically, the new session pays once", async () => {
        const cart = await createCart(getContainer(), store, 1500)
        const old = await startPayment(api, store, cart.id)
        const replacement = await startPayment(api, store, cart.id)
        expect(replacement.session.id).not.toBe(old.session.id)

        // The shopper pays the old page (still open in another tab).
        await payPage(old.session.data.checkoutUrl, card(SUCCESS_CARD))
        const oldTx = await waitFor(async () => {
          const tx = await control(env.sandbox, "GET", `/transactions/${old.session.data.transactionId}`)
          return tx.status === "refunded" ? tx : undefined
        }, "the automatic refund of the replaced session's payment")
        expect(oldTx.refundAmount).toBe(1500)
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()

        // Then pays the current page: exactly one order and one payment.
        await payPage(replacement.session.data.checkoutUrl, card(SUCCESS_CARD))
        await expectOneCapturedOrder(getContainer(), cart.id, replacement.collectionId)
      })
    })
  },
})
