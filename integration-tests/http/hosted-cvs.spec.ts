import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow } from "@medusajs/medusa/core-flows"
import {
  adminToken,
  capturedOrder,
  card,
  completeCart,
  control,
  createCart,
  orderOfCart,
  payPage,
  seedStore,
  startPayment,
  STOREFRONT,
  SUCCESS_CARD,
  THREE_DS_CARD,
  useSandbox,
  waitFor,
  type Store,
} from "../helpers/hosted-store"
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

    const sessionOf = async (id: string) => getContainer().resolve(Modules.PAYMENT).retrievePaymentSession(id)

    describe("hosted checkout: convenience store and ATM", () => {
      it("cvs: the order is placed awaiting payment with the code, then paid and captured by notification", async () => {
        const cart = await createCart(getContainer(), store, 750)
        const { session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        const location = await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
        expect(location).toBe(`/checkout/result/${session.data.transactionId}`)

        // The shopper follows the code page's link back to the store.
        const completed = await completeCart(api, store, cart.id)
        expect(completed.data.type).toBe("order")
        const placed = await orderOfCart(getContainer(), cart.id)
        expect(placed!.payment_collections![0]!.status).toBe("awaiting")
        expect(placed!.payment_collections![0]!.payments).toEqual([])
        const awaiting = await sessionOf(session.id)
        expect(awaiting.status).toBe("pending_authorization")
        expect(awaiting.data).toMatchObject({ status: "charging", paymentMethod: "cvs", paymentInfo: { code: expect.any(String), expiredAt: expect.any(String) } })

        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
        const paid = await waitFor(async () => {
          const order = await orderOfCart(getContainer(), cart.id)
          return order?.payment_collections?.[0]?.payments?.[0]?.captured_at ? order : undefined
        }, "the capture after the cvs payment")
        expect(paid.payment_collections![0]!.payments).toHaveLength(1)
        expect(paid.payment_collections![0]!.payments![0]!.captures).toHaveLength(1)
        expect(Number(paid.payment_collections![0]!.payments![0]!.amount)).toBe(750)
      })

      it("cvs: the code expires unpaid and the awaiting order is cancelled (cancelOrderWorkflow)", async () => {
        const cart = await createCart(getContainer(), store, 600)
        const { session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "FamilyMart" })
        await completeCart(api, store, cart.id)
        const placed = await orderOfCart(getContainer(), cart.id)
        expect(placed!.status).toBe("pending")

        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/expire`)
        const cancelled = await waitFor(async () => {
          const order = await orderOfCart(getContainer(), cart.id)
          return order?.status === "canceled" ? order : undefined
        }, "the order cancelled after expiry")
        expect(cancelled.payment_collections![0]!.payments).toEqual([])
      })

      it("cvs: the order is placed by the `charging` notification even when the shopper never returns", async () => {
        const cart = await createCart(getContainer(), store, 820)
        const { session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })

        // Core's completion places the order, then records the awaited payment as its last step.
        const order = await waitFor(async () => {
          const placed = await orderOfCart(getContainer(), cart.id)
          return placed?.payment_collections?.[0]?.status === "awaiting" ? placed : undefined
        }, "the order placed from the code notification, awaiting payment")
        expect(order.status).toBe("pending")
      })

      describe("paid after the awaiting order was cancelled (an orphan)", () => {
        const REMITTANCE = { bankCode: "004", bankName: "Bank of Taiwan", branchCode: "0037", branchName: "Xinyi", account: "123456789012", accountName: "Lin Mei" }

        /** An order placed awaiting payment, then cancelled by the merchant through the admin API. */
        async function cancelledAwaitingOrder(amount: number, pay: (checkoutUrl: string) => Promise<unknown>, data: Record<string, unknown> = {}) {
          const admin = await adminToken(api, getContainer())
          const cart = await createCart(getContainer(), store, amount)
          const { session } = await startPayment(api, store, cart.id, data)
          await pay(session.data.checkoutUrl)
          expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
          const placed = await orderOfCart(getContainer(), cart.id)
          expect(placed!.payment_collections![0]!.payments).toEqual([])
          const cancel = await api.post(`/admin/orders/${placed!.id}/cancel`, {}, { headers: admin }).catch((e: { response: { status: number; data: unknown } }) => e.response)
          expect({ status: cancel.status, data: cancel.status === 200 ? undefined : cancel.data }).toEqual({ status: 200, data: undefined })
          expect((await orderOfCart(getContainer(), cart.id))!.status).toBe("canceled")
          return { admin, cart, session }
        }

        it("cvs: the payment is recorded on the cancelled order, where the merchant refunds it by remittance", async () => {
          const { admin, cart, session } = await cancelledAwaitingOrder(700, (url) => payPage(url, { method: "cvs", cvsName: "7-ELEVEN" }), { methods: ["cvs"] })

          await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
          const recorded = await waitFor(async () => {
            const order = await orderOfCart(getContainer(), cart.id)
            return order?.payment_collections?.[0]?.payments?.[0]?.captured_at ? order : undefined
          }, "the cvs payment recorded on the cancelled order")
          expect(recorded.status).toBe("canceled")
          const payment = recorded.payment_collections![0]!.payments![0]!
          expect(Number(payment.amount)).toBe(700)
          expect(payment.data).toMatchObject({ status: "charged", paymentMethod: "cvs" })
          // Nothing was returned behind the merchant's back: the money waits for the shopper's account.
          expect(await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).toMatchObject({ status: "charged" })

          // The order page's way back: the shopper's bank account, then the refund.
          const answer = (path: string, body: unknown) =>
            api.post(path, body, { headers: admin }).then(
              (res: { status: number }) => ({ status: res.status, message: undefined }),
              (e: { response: { status: number; data: { message?: string } } }) => ({ status: e.response.status, message: e.response.data?.message })
            )
          expect(await answer(`/admin/tw-payments/${payment.id}/remittance`, REMITTANCE)).toEqual({ status: 200, message: undefined })
          // Core's refund route refuses a cancelled order; the plugin's route runs core's refund workflow for it.
          expect(await answer(`/admin/tw-payments/${payment.id}/cancelled-order-refund`, {})).toEqual({ status: 200, message: undefined })
          expect((await answer(`/admin/tw-payments/${payment.id}/cancelled-order-refund`, {})).status).toBe(400)
          const refunded = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
          expect(refunded.refundAmount).toBe(700)
          expect(["refunding", "refunded"]).toContain(refunded.status)
          // The records are core's: the refund on the payment and its transaction on the order.
          const { data: orders } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({
            entity: "order",
            fields: ["transactions.reference", "transactions.amount", "payment_collections.payments.refunds.amount"],
            filters: { id: recorded.id },
          })
          const order = orders[0] as { transactions: Array<{ reference: string; amount: number }>; payment_collections: Array<{ payments: Array<{ refunds: Array<{ amount: number }> }> }> }
          expect(order.transactions.filter((t) => t.reference === "refund").map((t) => Number(t.amount))).toEqual([-700])
          expect(order.payment_collections[0].payments[0].refunds.map((r) => Number(r.amount))).toEqual([700])
        })

        it("Apple Pay confirmed after the cancel: refunded automatically, nothing recorded on the order", async () => {
          const { cart, session } = await cancelledAwaitingOrder(990, (url) =>
            payPage(`${url}?applePay=1`, { method: "applePay", applePayDevice: "1", applePayOutcome: "pending" })
          )

          await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
          const refunded = await waitFor(async () => {
            const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
            return tx.refundAmount ? tx : undefined
          }, "the orphan refund")
          expect(refunded).toMatchObject({ status: "refunded", refundAmount: 990 })
          const order = await orderOfCart(getContainer(), cart.id)
          expect(order!.status).toBe("canceled")
          expect(order!.payment_collections![0]!.payments).toEqual([])
        })
      })

      describe("an order awaiting its money keeps its payment", () => {
        /** A cart paid with a code (cvs or atm) and completed: its order awaits the money. */
        async function awaitingOrder(amount: number, method: "cvs" | "atm") {
          const cart = await createCart(getContainer(), store, amount)
          const { collectionId, session } = await startPayment(api, store, cart.id, { methods: [method] })
          await payPage(session.data.checkoutUrl, method === "cvs" ? { method, cvsName: "7-ELEVEN" } : { method })
          expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
          expect((await orderOfCart(getContainer(), cart.id))!.payment_collections![0]!.status).toBe("awaiting")
          return { cart, collectionId, session }
        }
        const newSession = (collectionId: string) =>
          api
            .post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_hosted-checkout_hosted-checkout", data: {} }, { headers: store.headers })
            .then(
              (res: { status: number }) => ({ status: res.status, code: undefined }),
              (e: { response: { status: number; data: { code?: string } } }) => ({ status: e.response.status, code: e.response.data?.code })
            )
        const serviceStatus = async (transactionId: string) => (await control(env.sandbox, "GET", `/transactions/${transactionId}`)).status

        it("cvs: a new session on the order's collection is refused, by the store route and by core's workflow, and the code stays payable", async () => {
          const { cart, collectionId, session } = await awaitingOrder(760, "cvs")

          expect(await newSession(collectionId)).toEqual({ status: 400, code: "cart_already_completed" })
          // Core's workflow without the route's guard (a script, another route): the provider refuses to delete the awaited session.
          const { errors } = await createPaymentSessionsWorkflow(getContainer()).run({
            input: { payment_collection_id: collectionId, provider_id: "pp_hosted-checkout_hosted-checkout" },
            throwOnError: false,
          })
          expect(errors.map((e) => e.error?.message)).toEqual(["Could not delete all payment sessions"])
          // The session the workflow created beside it was undone: the collection holds the awaited session alone.
          const kept = await getContainer().resolve(Modules.PAYMENT).listPaymentSessions({ payment_collection_id: collectionId })
          expect(kept.map((s) => [s.id, s.status])).toEqual([[session.id, "pending_authorization"]])
          expect(await serviceStatus(session.data.transactionId)).toBe("charging")

          await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
          const paid = await capturedOrder(getContainer(), cart.id)
          expect(paid.status).toBe("pending")
        })

        it("atm: a new session is refused, and the transfer paid afterwards captures the order", async () => {
          const { cart, collectionId, session } = await awaitingOrder(1240, "atm")

          expect(await newSession(collectionId)).toEqual({ status: 400, code: "cart_already_completed" })
          expect(await serviceStatus(session.data.transactionId)).toBe("charging")

          await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
          const paid = await capturedOrder(getContainer(), cart.id)
          expect(paid.status).toBe("pending")
          expect(Number(paid.payment_collections![0]!.payments![0]!.amount)).toBe(1240)
        })

        it("a transfer paid after its session was deleted by force is recorded on the order that awaited it", async () => {
          const { cart, session } = await awaitingOrder(1330, "atm")
          // As a race or an older version of the plugin could leave it: the awaited session is gone, the transfer payable.
          await getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)("payment_session").where({ id: session.id }).delete()

          await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
          const paid = await capturedOrder(getContainer(), cart.id)
          expect(paid.status).toBe("pending")
          const [payment] = paid.payment_collections![0]!.payments!
          expect(Number(payment!.amount)).toBe(1330)
          expect(payment!.data).toMatchObject({ transactionId: session.data.transactionId, customId: session.id, paymentMethod: "atm", status: "charged" })
          // Nothing went back and nothing waits for a remittance: the money is the order's.
          expect(await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).toMatchObject({ status: "charged" })
          expect(await getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)("tw_remittance_due").where({ transaction_id: session.data.transactionId })).toEqual([])
        })

        it("a code issued before the order is placed: the cart's collection takes no new session either", async () => {
          const cart = await createCart(getContainer(), store, 530)
          const { collectionId, session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
          await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
          // Whether or not the code's notification has placed the order yet, the code stays the cart's.
          expect((await newSession(collectionId)).status).toBe(400)
          expect(await serviceStatus(session.data.transactionId)).toBe("charging")
        })
      })

      it("atm: a virtual account is issued and the order awaits the transfer", async () => {
        const cart = await createCart(getContainer(), store, 1999)
        const { session } = await startPayment(api, store, cart.id, { methods: ["atm"] })
        await payPage(session.data.checkoutUrl, { method: "atm" })
        const completed = await completeCart(api, store, cart.id)
        expect(completed.data.type).toBe("order")
        const awaiting = await sessionOf(session.id)
        expect(awaiting.data).toMatchObject({ paymentMethod: "atm", paymentInfo: { account: expect.any(String), expiredAt: expect.any(String) } })
      })
    })

    describe("hosted checkout: LINE Pay and Apple Pay", () => {
      it("LINE Pay is paid at once and the order is captured", async () => {
        const cart = await createCart(getContainer(), store, 880)
        const { session } = await startPayment(api, store, cart.id, { methods: ["linePay"] })
        expect(await payPage(session.data.checkoutUrl, { method: "linePay" })).toBe(`${STOREFRONT}/checkout/hosted/return`)
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        const order = await orderOfCart(getContainer(), cart.id)
        expect(order!.payment_collections![0]!.payments![0]!.data).toMatchObject({ status: "charged", paymentMethod: "linePay" })
        expect(order!.payment_collections![0]!.payments![0]!.captured_at).toBeTruthy()
      })

      it("Apple Pay (offered on a capable device) awaiting confirmation places the order awaiting payment", async () => {
        const cart = await createCart(getContainer(), store, 990)
        const { session } = await startPayment(api, store, cart.id)
        await payPage(`${session.data.checkoutUrl}?applePay=1`, { method: "applePay", applePayDevice: "1", applePayOutcome: "pending" })
        expect((await completeCart(api, store, cart.id)).data.type).toBe("order")
        expect((await sessionOf(session.id)).data).toMatchObject({ status: "charging", paymentMethod: "applePay" })
        expect((await orderOfCart(getContainer(), cart.id))!.payment_collections![0]!.status).toBe("awaiting")
      })
    })

    describe("the status mapping, row by row, through cart completion", () => {
      it("initiated -> requires_more: completing before paying is refused and changes nothing", async () => {
        const cart = await createCart(getContainer(), store, 300)
        const { session } = await startPayment(api, store, cart.id)
        const refused = await completeCart(api, store, cart.id)
        expect(refused.status).toBe(400)
        expect((await sessionOf(session.id)).status).toBe("requires_more")
        expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      })

      it("failed (3-D Secure abandoned) -> error: no order, the cart stays payable", async () => {
        const cart = await createCart(getContainer(), store, 300)
        const { session } = await startPayment(api, store, cart.id)
        const challenge = await payPage(session.data.checkoutUrl, card(THREE_DS_CARD))
        expect(challenge).toBe(`/checkout/3ds/${session.data.transactionId}`)
        await control(env.sandbox, "POST", "/clock/advance", { seconds: 11 * 60 })
        const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
        expect(tx.status).toBe("failed")

        const refused = await completeCart(api, store, cart.id)
        expect(refused.status).toBe(400)
        expect((await sessionOf(session.id)).status).toBe("error")
        const retry = await startPayment(api, store, cart.id)
        expect(retry.session.status).toBe("requires_more")
      })

      it("claimed -> captured", async () => {
        const cart = await createCart(getContainer(), store, 450)
        const { session } = await startPayment(api, store, cart.id)
        expect(await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))).toBe(`${STOREFRONT}/checkout/hosted/return`)
        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/claim`)
        const completed = await completeCart(api, store, cart.id)
        expect(completed.data.type).toBe("order")
        const order = await orderOfCart(getContainer(), cart.id)
        expect(order!.payment_collections![0]!.payments![0]!.captured_at).toBeTruthy()
        expect(order!.payment_collections![0]!.payments![0]!.data).toMatchObject({ status: "claimed" })
      })

      it("cancelled (unpaid cvs code cancelled) -> canceled: never authorizes", async () => {
        const cart = await createCart(getContainer(), store, 500)
        const { session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
        // The merchant cancels the code at the service (a refund of an unpaid code, spec 4.10).
        const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
        const res = await fetch(`${env.sandbox.hostedBaseUrl}/refunds/${tx.transactionHid}`, {
          method: "POST",
          headers: { authorization: `Bearer ${env.sandbox.defaultMerchant.token}`, "content-type": "application/json" },
          body: JSON.stringify({ merchantId: env.sandbox.defaultMerchant.merchantId }),
        })
        expect((await res.json()).data.status).toBe("cancelled")
        const refused = await completeCart(api, store, cart.id)
        expect(refused.status).toBe(400)
        expect((await sessionOf(session.id)).status).toBe("canceled")
      })
    })
  },
})
