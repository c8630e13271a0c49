import {
  adminToken,
  card,
  control,
  createCart,
  createProductWithPlan,
  expectOneCapturedOrder,
  forgedCharged,
  HOOK_PATH,
  orderOfCart,
  payPage,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  transactionReads,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)
// Only a notification can bring the store up to date here.
process.env.TW_RECONCILIATION = "off"
// A delivery delay of whole seconds (the tests' default is 0.5 s): the read window of unsigned bodies is that long.
const DELIVERY_DELAY_MS = 3_000
process.env.TW_DELIVERY_DELAY_MS = String(DELIVERY_DELAY_MS)
const env = useSandbox()

/** Well below the reconciliation's minute: only the notification can change the store this soon. */
const PROMPTLY_MS = 15_000

/**
 * Unsigned notifications: a forged one is read against the service like any
 * other, and never marks the real one that follows as a repeat (issue 21, I6);
 * the bodies naming one id cost at most one read per delivery delay. The
 * payment branch's single forgeries are in pipeline.spec.ts.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: { authorization: string }
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      admin = await adminToken(api, getContainer())
    })

    async function customer(email: string): Promise<Record<string, string>> {
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { ...store.headers, authorization: `Bearer ${login.token}` }
    }

    /** A paid monthly subscription checkout; returns the store's subscription id. */
    async function activeSubscription(): Promise<string> {
      const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" })
      const headers = await customer("forged@example.test")
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      await api.post(`/store/carts/${created.cart.id}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${created.cart.id}/tw-subscription`, { plan_id: planId }, { headers })
      await payPage(data.payment_session.data.checkoutUrl, card(SUCCESS_CARD))
      return data.subscription.id
    }

    const merchant = (changes: Record<string, unknown>) => control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, changes)
    const detail = async (id: string): Promise<{ status: string; service_subscription_id: string | null; first_order_id: string | null }> =>
      (await api.get(`/admin/tw-subscriptions/${id}`, { headers: admin })).data.subscription

    it("a forged cancellation of a live subscription changes nothing, and the service's real one is still recorded promptly", async () => {
      const id = await activeSubscription()
      const active = await waitFor(async () => {
        const s = await detail(id)
        return s.status === "active" && s.first_order_id && s.service_subscription_id ? s : undefined
      }, "the active subscription")
      await settle()

      const forged = { purpose: "subscription_cancelled", subscriptionId: active.service_subscription_id, source: "crm", reason: "forged" }
      expect((await api.post(HOOK_PATH, forged)).status).toBe(200)
      await settle()
      expect((await detail(id)).status).toBe("active")

      // The merchant cancels it at the service: its notification (a "new event", sent when the merchant opted in) is the real one.
      await merchant({ newEventOption: true })
      try {
        await control(env.sandbox, "POST", `/subscriptions/${active.service_subscription_id}/cancel`, { reason: "Console" })
        await waitFor(async () => (await detail(id)).status === "cancelled", "the real cancellation recorded", PROMPTLY_MS)
      } finally {
        await merchant({ newEventOption: false })
      }
    })

    const forgeCharged = (session: { id: string; data: { transactionId: string; transactionHid: string } }, amount: number) => api.post(HOOK_PATH, forgedCharged(env.sandbox, session, amount))

    it("a flood of forged charged notifications for one unpaid transaction costs one read, and the real one still places the order promptly", async () => {
      const cart = await createCart(getContainer(), store, 900)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      const before = await transactionReads(env.sandbox)
      const answers = await Promise.all(Array.from({ length: 10 }, () => forgeCharged(session, 900)))
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
      await settle()
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      // Ten bodies within one delivery delay: the first copy's read covers the nine others.
      expect((await transactionReads(env.sandbox)) - before).toBe(1)

      const paying = await transactionReads(env.sandbox)
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await waitFor(async () => (await orderOfCart(getContainer(), cart.id))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the order from the real notification", PROMPTLY_MS)
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect((await transactionReads(env.sandbox)) - paying).toBe(1)
    })

    it("a real notification that arrives while a forgery waits out its delay is covered by the forgery's read, which places the order", async () => {
      const cart = await createCart(getContainer(), store, 950)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      const before = await transactionReads(env.sandbox)
      const forgedAt = Date.now()
      expect((await forgeCharged(session, 950)).status).toBe(200)
      // Paid before the forgery is handled: its read, made after the real notification arrived, finds the payment.
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      expect(Date.now() - forgedAt).toBeLessThan(DELIVERY_DELAY_MS)
      await waitFor(async () => (await orderOfCart(getContainer(), cart.id))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the order", PROMPTLY_MS)
      await settle()
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect((await transactionReads(env.sandbox)) - before).toBe(1)
    })
  },
})
