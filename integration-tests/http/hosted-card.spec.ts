import { Modules } from "@medusajs/framework/utils"
import { card, completeCart, control, createCart, orderOfCart, payPage, PROVIDER_ID, REFUSED_CARD, seedStore, startPayment, STOREFRONT, SUCCESS_CARD, useSandbox, waitFor, type Store } from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
const env = useSandbox()

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
    })

    describe("hosted checkout: card", () => {
      it("a shopper pays by card, returns to the store, and the order is placed with the payment captured", async () => {
        const cart = await createCart(getContainer(), store, 1280)
        const { session } = await startPayment(api, store, cart.id)

        expect(session.status).toBe("requires_more")
        expect(session.data).toMatchObject({ transactionId: expect.stringMatching(/^[A-Za-z0-9]{27}$/), amount: 1280 })
        expect(session.data.checkoutUrl).toBe(`${env.sandbox.checkoutHost}/checkout/${session.data.transactionId}`)
        expect(JSON.stringify(session.data)).not.toContain(env.sandbox.defaultMerchant.token)

        const location = await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        expect(location).toBe(`${STOREFRONT}/checkout/hosted/return`)

        const completed = await completeCart(api, store, cart.id)
        expect(completed.status).toBe(200)
        expect(completed.data.type).toBe("order")
        const order = await orderOfCart(getContainer(), cart.id)
        const [payment] = order!.payment_collections![0]!.payments!
        expect(Number(payment!.amount)).toBe(1280)
        expect(payment!.captured_at).toBeTruthy()
        expect(payment!.captures).toHaveLength(1)
        expect(payment!.data).toMatchObject({ status: "charged", paymentMethod: "card", transactionId: session.data.transactionId })
      })

      it("the notification alone places the order when the shopper never returns", async () => {
        const cart = await createCart(getContainer(), store, 900)
        const { session } = await startPayment(api, store, cart.id)
        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))

        // Core's completion places the order, then records the payment as its last step.
        await waitFor(async () => (await orderOfCart(getContainer(), cart.id))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the captured order")
        const order = (await orderOfCart(getContainer(), cart.id))!
        expect(order.payment_collections![0]!.payments).toHaveLength(1)

        // The shopper comes back late: the same order, no second payment.
        const completed = await completeCart(api, store, cart.id)
        expect(completed.data.order?.id ?? completed.data.id).toBe(order.id)
        const after = await orderOfCart(getContainer(), cart.id)
        expect(after!.payment_collections![0]!.payments).toHaveLength(1)
        expect(after!.payment_collections![0]!.payments![0]!.captures).toHaveLength(1)
      })

      it("a paid cart takes no new payment session, so the order's money is never returned as a replaced session's", async () => {
        const cart = await createCart(getContainer(), store, 780)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        await waitFor(async () => (await orderOfCart(getContainer(), cart.id))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the captured order")

        // A second tab starts the payment again: core would delete the paid session first, refunding it.
        const again = await api
          .post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_ID, data: {} }, { headers: store.headers })
          .catch((e: { response: { status: number; data: { message: string } } }) => e.response)
        expect(again.status).toBe(400)
        expect(again.data.message).toBe("This cart is already paid; no new payment can be started for it.")
        const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
        expect(tx).toMatchObject({ status: "charged" })
        expect(tx.refundAmount ?? 0).toBe(0)
        const sessions = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ payment_collection_id: collectionId })
        expect(sessions.map((s) => s.id)).toEqual([session.id])
        const [payment] = (await orderOfCart(getContainer(), cart.id))!.payment_collections![0]!.payments!
        expect(payment!.captured_at).toBeTruthy()
        expect(payment!.refunds).toEqual([])
      })

      it("a declined card leaves the cart payable, and a retry on the same cart succeeds", async () => {
        const cart = await createCart(getContainer(), store, 500)
        const first = await startPayment(api, store, cart.id)
        const failed = await payPage(first.session.data.checkoutUrl, card(REFUSED_CARD))
        expect(failed).toMatch(/\/checkout\/hosted\/failed\?payment_error=T000\d$/)

        const refused = await completeCart(api, store, cart.id)
        expect(refused.status).toBeGreaterThanOrEqual(400)
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()

        const second = await startPayment(api, store, cart.id)
        expect(second.session.data.transactionId).not.toBe(first.session.data.transactionId)
        await payPage(second.session.data.checkoutUrl, card(SUCCESS_CARD))
        const completed = await completeCart(api, store, cart.id)
        expect(completed.data.type).toBe("order")
        const order = await orderOfCart(getContainer(), cart.id)
        expect(order!.payment_collections![0]!.payments).toHaveLength(1)
        expect(order!.payment_collections![0]!.payments![0]!.data).toMatchObject({ transactionId: second.session.data.transactionId })
      })
    })
  },
})
