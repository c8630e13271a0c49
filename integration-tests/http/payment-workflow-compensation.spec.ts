import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../src/modules/tw-payment-sweep"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../src/modules/tw-subscription"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import { pluginProvider } from "../../src/providers/plugin-providers"
import { finishTwRecordedRefundWorkflow, processTwPaymentWorkflow, refundTwCancelledOrderWorkflow } from "../../src/workflows"
import { sweepLeaseKey } from "../../src/workflows/sweep/steps/take-tw-sweep-lease"
import { sweepTwServicePaymentsWorkflow } from "../../src/workflows/sweep/sweep-tw-service-payments"
import {
  adminToken,
  capturedOrder,
  card,
  completeCart,
  confirmCard,
  control,
  createCart,
  createProductWithPlan,
  EMBEDDED_PROVIDER_ID,
  EMBEDDED_PROVIDER_KEY,
  expectOneCapturedOrder,
  HOOK_PATH,
  orderOfCart,
  paymentsOf,
  payPage,
  PROVIDER_KEY,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { failLockRelease, lockIsFree as lockFree } from "../helpers/locks"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)
// Every run here is started by the test: a scheduled one would take the sweep's lease or finish a forced failure's work.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

type Answer = { status: number; data: { message?: string } & Record<string, unknown> }
const rejected = (e: { response: Answer }) => e.response

/** A workflow's run rejects with its step's error, serialized (a plain object, not an Error). */
const FORCED = { message: expect.stringMatching(/^forced: /) }

/** Session data as the store reads it: a key cleared to null reads as absent. */
const withoutNulls = (data: Record<string, unknown> | null | undefined) => Object.fromEntries(Object.entries(data ?? {}).filter(([, value]) => value !== null))

/**
 * The payment workflows, failed half-way on purpose (a module call made to
 * throw, or a service fault): the compensations leave no trace of the steps
 * that had run (no order, payment, sealed read, lock or claim; a
 * subscription's row as it was; the sweep's cursor where it stood), and the
 * next run, without the fault, does the work once.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
    })
    afterEach(async () => {
      jest.restoreAllMocks()
      await control(env.sandbox, "DELETE", "/faults")
    })

    const paymentModule = () => getContainer().resolve(Modules.PAYMENT)
    async function sessionState(id: string) {
      const [session] = await paymentModule().listPaymentSessions({ id }, { select: ["id", "status", "data"] })
      return { status: session.status, data: withoutNulls(session.data) }
    }
    const lockIsFree = (key: string) => lockFree(getContainer(), key)

    describe("process-tw-payment", () => {
      it("the cart's completion fails at every attempt: no order, no payment, the session as before, no claim, and only the run's own lock given back; the next delivery places exactly one order", async () => {
        const container = getContainer()
        const locking = container.resolve(Modules.LOCKING)
        const cart = await createCart(container, store, 800)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        const before = await sessionState(session.id)
        const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
        const warn = jest.spyOn(logger, "warn")
        const lastAttemptFailed = () => warn.mock.calls.some(([message]) => String(message).includes(`completing paid cart ${cart.id} failed (attempt 3)`))
        // Core's completion authorizes the session as its last step: made to fail, every completion attempt is rolled back.
        jest.spyOn(paymentModule(), "authorizePaymentSession").mockRejectedValue(new Error("forced: the payment module is down"))
        // While the run is undone (the facts put back), another checkout of the cart takes the cart's lock, which the run gave back before completing.
        const update = paymentModule().updatePaymentSession.bind(paymentModule())
        jest.spyOn(paymentModule(), "updatePaymentSession").mockImplementation(async (data) => {
          if (lastAttemptFailed()) {
            await locking.acquire(cart.id, { ownerId: "another-checkout", expire: 60 })
          }
          return update(data)
        })

        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        await waitFor(async () => warn.mock.calls.some(([message]) => String(message).includes("not handled yet")), "the delivery to fail", 90_000)
        expect(warn.mock.calls.filter(([message]) => String(message).includes(`completing paid cart ${cart.id} failed`))).toHaveLength(3)
        expect(await orderOfCart(container, cart.id)).toBeUndefined()
        expect(await paymentsOf(container, collectionId)).toEqual([])
        // The facts and the sealed read recorded before the completion were put back.
        expect(await sessionState(session.id)).toEqual(before)
        // The run's compensation released only its own lock: the other checkout still holds the cart.
        await expect(locking.acquire(cart.id, { ownerId: "test-probe", expire: 5 })).rejects.toThrow()
        await locking.release(cart.id, { ownerId: "another-checkout" })
        expect(await lockIsFree(cart.id)).toBe(true)

        // The service's next notification of the same payment: not taken for a repeat (no claim was left).
        jest.restoreAllMocks()
        const { notifications } = await control(env.sandbox, "GET", "/notifications?purpose=charge")
        const delivered = (notifications as Array<{ body: { id?: string } & Record<string, unknown>; state: string }>).find(
          (n) => n.body.id === session.data.transactionId && n.state === "delivered"
        )
        const skipped = jest.spyOn(logger, "info")
        await api.post(HOOK_PATH, delivered!.body)
        await expectOneCapturedOrder(container, cart.id, collectionId)
        expect(skipped.mock.calls.some(([message]) => String(message).includes("skipped: a repeat"))).toBe(false)
      })

      it("recording the read fails: nothing written and the cart's lock given back; the reconciliation then places exactly one order", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
        const container = getContainer()
        const cart = await createCart(container, store, 900)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        const before = await sessionState(session.id)

        const update = jest.spyOn(paymentModule(), "updatePaymentSession").mockRejectedValueOnce(new Error("forced: the database went away"))
        const run = processTwPaymentWorkflow(container).run({ input: { provider: PROVIDER_KEY, serviceId: session.data.transactionId } })
        await expect(run).rejects.toMatchObject(FORCED)
        expect(update).toHaveBeenCalledTimes(1)
        expect(await orderOfCart(container, cart.id)).toBeUndefined()
        expect(await paymentsOf(container, collectionId)).toEqual([])
        expect(await sessionState(session.id)).toEqual(before)
        expect(await lockIsFree(cart.id)).toBe(true)

        update.mockRestore()
        await reconcileTwPayments(container, { force: true })
        await expectOneCapturedOrder(container, cart.id, collectionId)
      })

      it("an expired cvs code's order is cancelled, then recording the expiry fails (and on the next run, the unlock): the cancel stands, the session as before, the cart's lock given back; a clean run records the failed payment and cancels nothing again", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
        const container = getContainer()
        const cart = await createCart(container, store, 600)
        const { session } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "FamilyMart" })
        await completeCart(api, store, cart.id)
        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/expire`)
        const before = await sessionState(session.id)
        const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
        const info = jest.spyOn(logger, "info")
        const cancels = () => info.mock.calls.filter(([message]) => String(message).includes("cancelled order")).length
        const run = () => processTwPaymentWorkflow(container).run({ input: { provider: PROVIDER_KEY, serviceId: session.data.transactionId } })

        jest.spyOn(paymentModule(), "updatePaymentSession").mockRejectedValueOnce(new Error("forced: the database went away"))
        await expect(run()).rejects.toMatchObject(FORCED)
        // The cancel is core's own run: it stands (core released the payment at the service).
        expect((await orderOfCart(container, cart.id))?.status).toBe("canceled")
        expect(cancels()).toBe(1)
        expect(await sessionState(session.id)).toEqual(before)
        expect(await lockIsFree(cart.id)).toBe(true)

        // The next run only records the expiry; its last step, the unlock, fails: the record is undone again.
        failLockRelease(container, cart.id)
        await expect(run()).rejects.toMatchObject(FORCED)
        expect(await sessionState(session.id)).toEqual(before)
        expect(await lockIsFree(cart.id)).toBe(true)

        await run()
        expect((await sessionState(session.id)).data).toMatchObject({ status: "failed" })
        expect(cancels()).toBe(1)
      })

      it("a paid cart is completed, then recording a refund fails: the order stands (the completion is its own run) and the cart's lock is given back; the next run places nothing more", async () => {
        const container = getContainer()
        const cart = await createCart(container, store, 700)
        const { collectionId, session } = await startPayment(api, store, cart.id, {}, EMBEDDED_PROVIDER_ID)
        await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS_CARD)
        const run = (refundId?: string) => processTwPaymentWorkflow(container).run({ input: { provider: EMBEDDED_PROVIDER_KEY, serviceId: session.data.paymentIntentId, refundId } })

        jest.spyOn(pluginProvider(container, EMBEDDED_PROVIDER_KEY)!.api, "refundUpdate").mockRejectedValueOnce(new Error("forced: the refund could not be read"))
        await expect(run("re_unknown")).rejects.toMatchObject(FORCED)
        await expectOneCapturedOrder(container, cart.id, collectionId)
        expect(await lockIsFree(cart.id)).toBe(true)

        await run()
        await expectOneCapturedOrder(container, cart.id, collectionId)
      })
    })

    describe("the refund workflows: their last step, giving the lock back, fails", () => {
      /** A card order, placed and captured. */
      async function paidOrder(amount: number) {
        const cart = await createCart(getContainer(), store, amount)
        const { session } = await startPayment(api, store, cart.id)
        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        await completeCart(api, store, cart.id)
        const order = await capturedOrder(getContainer(), cart.id)
        return { orderId: order.id, paymentId: order.payment_collections![0]!.payments![0]!.id, transactionId: session.data.transactionId }
      }
      const refundsOf = async (paymentId: string) => (await paymentModule().listRefunds({ payment_id: paymentId }, { select: ["amount"] })).map((r) => Number(r.amount))
      const transaction = (id: string) => control(env.sandbox, "GET", `/transactions/${id}`)

      it("finish-tw-recorded-refund, after the refund was made again: it stands, at the service and in the store, and the lock is given back; a second run makes nothing more", async () => {
        const { paymentId, transactionId } = await paidOrder(900)
        // What core's refund leaves when the process dies before its provider call: the refund row, 10 minutes old.
        const phantom = `ref_crash${Date.now()}`
        const at = new Date(Date.now() - 10 * 60_000)
        await getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)("refund").insert({ id: phantom, payment_id: paymentId, amount: 900, raw_amount: { value: "900", precision: 20 }, created_at: at, updated_at: at })
        const lockKey = `medusa-payment-tw:recorded-refund:${phantom}`
        const run = () => finishTwRecordedRefundWorkflow(getContainer()).run({ input: { provider: PROVIDER_KEY, refundId: phantom } })

        failLockRelease(getContainer(), lockKey)
        await expect(run()).rejects.toMatchObject(FORCED)
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 900 })
        expect(await refundsOf(paymentId)).toEqual([900])
        expect(await lockIsFree(lockKey)).toBe(true)

        expect((await run()).result.state).toBe("gone")
        expect(await refundsOf(paymentId)).toEqual([900])
        expect((await transaction(transactionId)).refundAmount).toBe(900)
      })

      it("refund-tw-cancelled-order, after the owed refund was made: it stands and the lock is given back; a second run refunds nothing more", async () => {
        const { orderId, paymentId, transactionId } = await paidOrder(700)
        // The service refuses refunds before doing anything: core's cancel logs it and cancels the order all the same; the subscriber's run after it fails too.
        await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /refunds/{transactionHid}", applied: false, count: 100 })
        await cancelOrderWorkflow(getContainer()).run({ input: { order_id: orderId } })
        await settle()
        await control(env.sandbox, "DELETE", "/faults")
        expect(await refundsOf(paymentId)).toEqual([])
        const lockKey = `medusa-payment-tw:owed-refund:${orderId}`
        const run = () => refundTwCancelledOrderWorkflow(getContainer()).run({ input: orderId })

        failLockRelease(getContainer(), lockKey)
        await expect(run()).rejects.toMatchObject(FORCED)
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 700 })
        expect(await refundsOf(paymentId)).toEqual([700])
        expect(await lockIsFree(lockKey)).toBe(true)

        expect((await run()).result).toEqual([])
        expect(await refundsOf(paymentId)).toEqual([700])
      })
    })

    describe("cancel-tw-subscription", () => {
      let admin: { authorization: string }
      beforeEach(async () => {
        admin = await adminToken(api, getContainer())
      })
      const subscriptionModule = () => getContainer().resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
      /** What a cancellation changes on the store's row. */
      async function cancellable(id: string) {
        const row = await subscriptionModule().retrieveTwSubscription(id)
        return { status: row.status, cancel_reason: row.cancel_reason, cancelled_at: row.cancelled_at, next_charge_at: row.next_charge_at }
      }
      const serviceSubscription = async (hid: string) =>
        ((await control(env.sandbox, "GET", "/subscriptions")).subscriptions as Array<{ id: string; status: string }>).find((s) => s.id === hid)!

      async function customer(email: string) {
        const password = "customer-password-1"
        const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
        await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
        const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
        return { ...store.headers, authorization: `Bearer ${login.token}` }
      }

      /** A monthly subscription's checkout, its page not paid yet. */
      async function checkout(email: string) {
        const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" })
        const headers = await customer(email)
        const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
        await api.post(`/store/carts/${created.cart.id}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
        const { data } = await api.post(`/store/carts/${created.cart.id}/tw-subscription`, { plan_id: planId }, { headers })
        return { headers, id: data.subscription.id as string, session: data.payment_session as { id: string; data: { checkoutUrl: string } } }
      }

      /** A monthly subscription, paid and active, with its service number and first order. */
      async function activeSubscription(email: string) {
        const started = await checkout(email)
        await payPage(started.session.data.checkoutUrl, card(SUCCESS_CARD))
        const row = await waitFor(async () => {
          const r = await subscriptionModule().retrieveTwSubscription(started.id)
          return r.status === "active" && r.service_subscription_id && r.first_order_id ? r : undefined
        }, "the active subscription")
        return { ...started, hid: row.service_subscription_id! }
      }

      it("the service fails the cancel (PUT 500): the row gets back its status, reason and dates, the lock is given back, and the cancel then succeeds", async () => {
        const { id, hid } = await activeSubscription("cancel-fails@example.test")
        const before = await cancellable(id)
        expect(before.next_charge_at).not.toBeNull()

        await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "PUT /subscriptions/{subscriptionHid}", count: 5 })
        const failed: Answer = await api.post(`/admin/tw-subscriptions/${id}/cancel`, { reason: "Fraud check" }, { headers: admin }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await cancellable(id)).toEqual(before)
        expect((await serviceSubscription(hid)).status).toBe("active")

        await control(env.sandbox, "DELETE", "/faults")
        const { data } = await api.post(`/admin/tw-subscriptions/${id}/cancel`, { reason: "Fraud check" }, { headers: admin })
        expect(data.subscription).toMatchObject({ status: "cancelled", cancel_reason: "Fraud check" })
        expect((await serviceSubscription(hid)).status).toBe("cancelled")
      })

      it("the service refuses the cancel (already cancelled in its console): the row as it was, and a second try is refused the same way, not held up by a lock", async () => {
        const { id, hid, headers } = await activeSubscription("cancel-refused@example.test")
        await control(env.sandbox, "POST", `/subscriptions/${hid}/cancel`, { reason: "Phoned in" })
        const before = await cancellable(id)

        for (const attempt of [1, 2]) {
          const refused: Answer = await api.post(`/store/customers/me/tw-subscriptions/${id}/cancel`, { reason: `Try ${attempt}` }, { headers }).catch(rejected)
          expect(refused.status).toBe(400)
          expect(refused.data.message).toMatch(/Nothing was changed/i)
          expect(await cancellable(id)).toEqual(before)
        }
      })

      it("releasing an unpaid checkout fails (its session cannot be deleted): the row is pending again and the session still there; then the cancel succeeds", async () => {
        const { id, headers, session } = await checkout("cancel-checkout@example.test")
        const before = await cancellable(id)
        expect(before.status).toBe("pending")

        jest.spyOn(paymentModule(), "deletePaymentSession").mockRejectedValueOnce(new Error("forced: the payment module is down"))
        const failed: Answer = await api.post(`/store/customers/me/tw-subscriptions/${id}/cancel`, {}, { headers }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await cancellable(id)).toEqual(before)
        expect(await paymentModule().listPaymentSessions({ id: session.id })).toHaveLength(1)

        const { data } = await api.post(`/store/customers/me/tw-subscriptions/${id}/cancel`, {}, { headers })
        expect(data.subscription.status).toBe("cancelled")
        expect(await paymentModule().listPaymentSessions({ id: session.id })).toHaveLength(0)
      })
    })

    describe("sweep-tw-service-payments", () => {
      const cursors = async () =>
        (await getContainer().resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE).listTwSweepCursors({})).filter((row) => row.id.startsWith(`${PROVIDER_KEY}@`))
      const sweep = () => sweepTwServicePaymentsWorkflow(getContainer()).run({ input: { provider: PROVIDER_KEY } })

      /** The sweep's last step, giving its lease back, fails once. */
      const failLeaseRelease = () => failLockRelease(getContainer(), sweepLeaseKey(PROVIDER_KEY))

      /** A paid page whose every notification was lost: only the sweep finds it. */
      async function paidUnnoticed(amount: number) {
        const cart = await createCart(getContainer(), store, amount)
        const { collectionId, session } = await startPayment(api, store, cart.id)
        await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
        return { cartId: cart.id, collectionId, transactionId: session.data.transactionId }
      }

      it("a failure after the cursor advanced puts it back (none stays none, a saved one stays as saved); the lease is given back, so the next run sweeps", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
        const first = await paidUnnoticed(700)

        failLeaseRelease()
        await expect(sweep()).rejects.toMatchObject(FORCED)
        expect(await cursors()).toEqual([])
        // What the pipeline did stands (its own workflow): the paid cart became its one order.
        await expectOneCapturedOrder(getContainer(), first.cartId, first.collectionId)
        jest.restoreAllMocks()

        const { result } = await sweep()
        expect(result.outcome).toMatchObject({ complete: true, failed: 0 })
        const saved = await cursors()
        expect(saved).toHaveLength(1)

        // A run that does work (it runs a new payment, which its state would remember) and then fails.
        const second = await paidUnnoticed(800)
        failLeaseRelease()
        await expect(sweep()).rejects.toMatchObject(FORCED)
        await expectOneCapturedOrder(getContainer(), second.cartId, second.collectionId)
        expect((await cursors()).map((row) => row.state)).toEqual(saved.map((row) => row.state))
        jest.restoreAllMocks()

        expect(await lockIsFree(sweepLeaseKey(PROVIDER_KEY))).toBe(true)
        const { result: again } = await sweep()
        expect(again.outcome).toBeDefined()
        await expectOneCapturedOrder(getContainer(), second.cartId, second.collectionId)
      })
    })
  },
})
