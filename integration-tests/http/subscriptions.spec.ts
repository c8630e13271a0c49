import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeTestRunner } from "../helpers/store-runner"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import reconcileTwSubscriptions from "../../src/jobs/reconcile-tw-subscriptions"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../src/modules/tw-subscription"
import { processTwSubscriptionWorkflow } from "../../src/workflows/subscriptions/process-tw-subscription"
import { adminToken, card, control, createProductWithPlan, HOOK_PATH, orderOfCart, payPage, seedStore, settle, type Store, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"

jest.setTimeout(240_000)
// The reconciliation runs only when a test calls it: a test of lost notifications must see them lost first.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

/** Binds and pays the first charge; every later charge is refused (`payment_refused`). */
const LATER_REFUSED_CARD = "4000000000010050"
/** Binds and pays the first charge; a later period fails once and succeeds when retried. */
const RETRY_CARD = "4000000000020059"
const DAY = 24 * 3600
/** Days that always pass a month's due time (the same day next month, 09:00 Taipei), from any time of day. */
const MONTH = 32

type Headers = Record<string, string>

interface SubscriptionView {
  id: string
  status: string
  amount: number
  periods_charged: number
  first_order_id: string | null
  service_subscription_id: string | null
  next_charge_at: string | null
  cancel_reason: string | null
  periods: Array<{ period: number; status: string; order_id: string | null; transaction_hid: string | null; attempts: number }>
}

/**
 * Subscriptions end to end: the store's routes, the hosted sandbox's
 * recurring and scheduled pages over HTTP, its clock moved month by month,
 * and the store's notifications, reconciliation and renewal orders.
 * The sandbox clock only moves forward, so the tests that need "today" (a
 * later first charge) come first, and a test that moves it a month more
 * comes last (where a retried period falls depends on the month).
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: { authorization: string }
    beforeAll(() => {
      // An HTTP error as a plain Error (status and body): axios errors cannot cross jest's worker boundary.
      api.interceptors.response.use(undefined, (error: { config?: { method?: string; url?: string }; response?: { status: number; data: unknown } }) =>
        Promise.reject(
          Object.assign(new Error(`${error.config?.method} ${error.config?.url}: ${error.response?.status} ${JSON.stringify(error.response?.data)}`), {
            response: { status: error.response?.status, data: error.response?.data },
          })
        )
      )
    })
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      admin = await adminToken(api, getContainer())
    })

    const merchant = (changes: Record<string, unknown>) => control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, changes)
    const advanceDays = async (days: number) => {
      await control(env.sandbox, "POST", "/clock/advance", { seconds: days * DAY })
      await settle()
    }

    async function customer(email: string): Promise<Headers> {
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { ...store.headers, authorization: `Bearer ${login.token}` }
    }

    const productWithPlan = (plan: Record<string, unknown>, price?: number) => createProductWithPlan(api, getContainer(), store, admin, plan, price)

    async function subscribe(headers: Headers, variantId: string, planId: string, number = SUCCESS_CARD) {
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId: string = created.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers })
      await payPage(data.payment_session.data.checkoutUrl, card(number))
      return { cartId, subscriptionId: data.subscription.id as string, session: data.payment_session }
    }

    const detail = async (id: string): Promise<SubscriptionView> => (await api.get(`/admin/tw-subscriptions/${id}`, { headers: admin })).data.subscription

    /**
     * To just past the subscription's next charge. A fixed month would, in a 30-day month, also pass
     * the retry a day after the due date, and the retrying state would never be seen.
     */
    const advanceToNextCharge = async (id: string) => {
      const { next_charge_at: due } = await detail(id)
      const { now } = await control(env.sandbox, "GET", "/clock")
      await control(env.sandbox, "POST", "/clock/advance", { seconds: Math.ceil((Date.parse(due!) - Date.parse(now)) / 1000) + 60 })
      await settle()
    }

    const waitForSubscription = (id: string, ready: (s: SubscriptionView) => boolean, what: string) =>
      waitFor(async () => {
        const s = await detail(id)
        return ready(s) ? s : undefined
      }, what)

    /** Orders of the subscription (module link), with their payments. */
    async function ordersOf(container: MedusaContainer, id: string) {
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "tw_subscription",
        fields: ["id", "orders.id", "orders.metadata", "orders.total", "orders.payment_collections.payments.id", "orders.payment_collections.payments.amount", "orders.payment_collections.payments.captured_at", "orders.payment_collections.payments.data"],
        filters: { id },
      })
      return ((data[0] as { orders?: Array<Record<string, unknown> & { id: string }> })?.orders ?? []).filter(Boolean)
    }

    const renewalOrders = async (id: string) => (await ordersOf(getContainer(), id)).filter((o) => (o.metadata as Record<string, unknown> | null)?.tw_subscription_period)

    it("routes refuse what is not a subscription checkout: no login, two items, another variant's plan, bad plan fields", async () => {
      const { variantId, planId, productId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const other = await productWithPlan({ title: "Other", kind: "monthly" })
      const headers = await customer("refusals@example.test")
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId = created.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: other.variantId, quantity: 1 }, { headers })

      const anonymous = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers: store.headers }).catch((e: { response: unknown }) => e.response)
      expect(anonymous.status).toBe(401)
      const twoItems = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers }).catch((e: { response: unknown }) => e.response)
      expect(twoItems.status).toBe(400)
      expect(twoItems.data.message).toMatch(/exactly one subscription item/)

      const { data: cart2 } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      await api.post(`/store/carts/${cart2.cart.id}/line-items`, { variant_id: other.variantId, quantity: 1 }, { headers })
      const wrongPlan = await api.post(`/store/carts/${cart2.cart.id}/tw-subscription`, { plan_id: planId }, { headers }).catch((e: { response: unknown }) => e.response)
      expect(wrongPlan.status).toBe(400)
      expect(wrongPlan.data.message).toMatch(/not the product variant/)

      const badPlan = await api
        .post(`/admin/product-variants/${variantId}/tw-subscription-plans`, { title: "x", kind: "monthly", interval_months: 3 }, { headers: admin })
        .catch((e: { response: unknown }) => e.response)
      expect(badPlan.status).toBe(400)
      expect(badPlan.data.message).toMatch(/interval_months/)

      const { data: offered } = await api.get(`/store/tw-subscription-plans?product_id=${productId}`, { headers: store.headers })
      expect(offered.plans.map((p: { id: string }) => p.id)).toEqual([planId])
    })

    it("scheduled with a later first charge: the order awaits payment and is captured when the service charges on the date", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Every 2 months", kind: "scheduled", interval_months: 2, periods: 3, first_charge_delay_days: 10 })
      const headers = await customer("later@example.test")
      const { cartId, subscriptionId, session } = await subscribe(headers, variantId, planId)
      expect(session.data.checkoutUrl).toContain("/checkout/schedule/")

      // The shopper returns and completes the cart: placed, awaiting payment.
      const { data: completed } = await api.post(`/store/carts/${cartId}/complete`, {}, { headers })
      expect(completed.type).toBe("order")
      const waiting = await waitForSubscription(subscriptionId, (s) => s.status === "pending_first_charge" && !!s.first_order_id, "the subscription waiting for its first charge")
      expect(waiting.service_subscription_id).toMatch(/^S/)
      const placed = await orderOfCart(getContainer(), cartId)
      expect(placed!.payment_collections![0]!.payments).toEqual([])

      await advanceDays(11)
      const active = await waitForSubscription(subscriptionId, (s) => s.periods_charged === 1 && s.periods[0]?.order_id === placed!.id, "the first charge recorded")
      expect(active.status).toBe("active")
      const captured = await waitFor(async () => {
        const order = await orderOfCart(getContainer(), cartId)
        return order?.payment_collections?.[0]?.payments?.[0]?.captured_at ? order : undefined
      }, "the first order captured")
      expect(Number(captured.payment_collections![0]!.payments![0]!.amount)).toBe(1200)
      expect(await renewalOrders(subscriptionId)).toHaveLength(0)
    })

    it("scheduled with a later first charge that fails: the awaiting order is cancelled and the subscription stopped", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Later", kind: "scheduled", interval_months: 1, first_charge_delay_days: 30 })
      const headers = await customer("later-fails@example.test")
      const { cartId, subscriptionId } = await subscribe(headers, variantId, planId, LATER_REFUSED_CARD)
      // The shopper never comes back: the schedule_subscription notification places the order.
      await waitForSubscription(subscriptionId, (s) => !!s.first_order_id, "the order placed from the notification")

      // The previous test moved the sandbox clock 11 days ahead of the store's.
      await advanceDays(21)
      const stopped = await waitForSubscription(subscriptionId, (s) => s.status === "stopped", "the subscription stopped")
      expect(stopped.periods[0]).toMatchObject({ period: 1, status: "failed" })
      const order = await waitFor(async () => {
        const o = await orderOfCart(getContainer(), cartId)
        return o?.status === "canceled" ? o : undefined
      }, "the awaiting order cancelled")
      expect(order.payment_collections![0]!.payments).toEqual([])
    })

    it("monthly, notifications duplicated and reordered: the first order at once, then exactly one captured renewal order per paid month; the customer sees and cancels it, no order after", async () => {
      await control(env.sandbox, "POST", "/faults", { kind: "duplicate", purpose: "charge", count: 5 })
      await control(env.sandbox, "POST", "/faults", { kind: "reorder", purpose: "charge", count: 2 })
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("monthly@example.test")
      const { cartId, subscriptionId, session } = await subscribe(headers, variantId, planId)
      expect(session.data.checkoutUrl).toContain("/checkout/subscription/")

      const first = await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")
      expect((await orderOfCart(getContainer(), cartId))!.id).toBe(first.first_order_id)

      for (let month = 1; month <= 3; month++) {
        await advanceDays(MONTH)
        await waitForSubscription(subscriptionId, (s) => s.periods_charged === month + 1 && s.periods.every((p) => !!p.order_id), `renewal ${month}`)
      }
      await settle()
      const renewals = await renewalOrders(subscriptionId)
      expect(renewals).toHaveLength(3)
      for (const order of renewals) {
        const payments = (order.payment_collections as Array<{ payments: Array<{ amount: number; captured_at: string | null }> }>)[0].payments
        expect(payments).toHaveLength(1)
        expect(Number(payments[0].amount)).toBe(1200)
        expect(payments[0].captured_at).toBeTruthy()
      }

      // The customer's own view, then someone else's.
      const { data: mine } = await api.get("/store/customers/me/tw-subscriptions", { headers })
      expect(mine.subscriptions.map((s: { id: string }) => s.id)).toEqual([subscriptionId])
      expect(mine.subscriptions[0].plan_title).toBe("Monthly")
      const { data: own } = await api.get(`/store/customers/me/tw-subscriptions/${subscriptionId}`, { headers })
      expect(own.subscription.periods.map((p: { order_id: string }) => p.order_id)).toEqual([first.first_order_id, ...(await detail(subscriptionId)).periods.slice(1).map((p) => p.order_id)])
      // The plan is named for the shopper; the customer record is the admin's only.
      expect(own.subscription.plan).toMatchObject({ id: planId, title: "Monthly", kind: "monthly" })
      expect(own.subscription).not.toHaveProperty("customer")
      const stranger = await customer("stranger@example.test")
      const peek = await api.get(`/store/customers/me/tw-subscriptions/${subscriptionId}`, { headers: stranger }).catch((e: { response: unknown }) => e.response)
      expect(peek.status).toBe(404)
      const theirs = await api.post(`/store/customers/me/tw-subscriptions/${subscriptionId}/cancel`, {}, { headers: stranger }).catch((e: { response: unknown }) => e.response)
      expect(theirs.status).toBe(404)
      expect((await detail(subscriptionId)).status).toBe("active")

      const { data: cancelled } = await api.post(`/store/customers/me/tw-subscriptions/${subscriptionId}/cancel`, { reason: "Too much tea" }, { headers })
      expect(cancelled.subscription).toMatchObject({ status: "cancelled", cancel_reason: "Too much tea" })
      const { subscriptions: atService } = await control(env.sandbox, "GET", "/subscriptions")
      expect(atService.find((s: { id: string }) => s.id === first.service_subscription_id)?.status).toBe("cancelled")

      await advanceDays(MONTH)
      await reconcileTwSubscriptions(getContainer(), { force: true })
      expect(await renewalOrders(subscriptionId)).toHaveLength(3)
      const { data: listed } = await api.get("/admin/tw-subscriptions?status=cancelled", { headers: admin })
      expect(listed.subscriptions.map((s: { id: string }) => s.id)).toEqual([subscriptionId])
      expect(listed.subscriptions[0].plan_title).toBe("Monthly")
    })

    it("a period that fails and succeeds on retry gets one renewal order; a renewal order is refunded like any hosted card payment", async () => {
      await merchant({ retryFeature: true })
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("retry@example.test")
      const { subscriptionId } = await subscribe(headers, variantId, planId, RETRY_CARD)
      // With its S number: the first order's own sync may record the period before the notification names the subscription (no next charge yet).
      await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")

      await advanceToNextCharge(subscriptionId)
      const retrying = await waitForSubscription(subscriptionId, (s) => s.periods[1]?.status === "retrying", "the period retrying")
      expect(retrying.status).toBe("retrying")
      await advanceDays(1)
      const paid = await waitForSubscription(subscriptionId, (s) => s.periods[1]?.status === "paid" && !!s.periods[1]?.order_id, "the retried period paid")
      expect(paid).toMatchObject({ status: "active", periods_charged: 2 })
      expect(paid.periods[1].attempts).toBe(2)
      const [renewal] = await renewalOrders(subscriptionId)
      const payment = (renewal.payment_collections as Array<{ payments: Array<{ id: string; data: { transactionHid: string } }> }>)[0].payments[0]

      await api.post(`/admin/payments/${payment.id}/refund`, { amount: 1200 }, { headers: admin })
      const tx = await control(env.sandbox, "GET", `/transactions/${payment.data.transactionHid}`)
      expect(tx.status).toBe("refunded")
      await merchant({ retryFeature: false })
    })

    it("retries used up: stopped, no renewal order; completed after its number of periods", async () => {
      await merchant({ retryFeature: true })
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("exhausted@example.test")
      const exhausted = await subscribe(headers, variantId, planId, LATER_REFUSED_CARD)
      await waitForSubscription(exhausted.subscriptionId, (s) => s.status === "active" && !!s.first_order_id, "the active subscription")
      const twice = await productWithPlan({ title: "Twice", kind: "monthly", periods: 2 })
      const done = await subscribe(headers, twice.variantId, twice.planId)
      await waitForSubscription(done.subscriptionId, (s) => s.status === "active" && !!s.first_order_id, "the second subscription")

      await advanceDays(MONTH)
      for (let day = 0; day < 4; day++) {
        await advanceDays(1)
      }
      // Retry notifications are off by default: the reconciliation finds the stop.
      await reconcileTwSubscriptions(getContainer(), { force: true })
      const stopped = await waitForSubscription(exhausted.subscriptionId, (s) => s.status === "stopped", "the subscription stopped")
      expect(stopped.periods[1]).toMatchObject({ status: "failed", order_id: null })
      expect(await renewalOrders(exhausted.subscriptionId)).toHaveLength(0)

      const completed = await waitForSubscription(done.subscriptionId, (s) => s.status === "completed", "the subscription completed")
      expect(completed.periods_charged).toBe(2)
      expect(await renewalOrders(done.subscriptionId)).toHaveLength(1)
      await merchant({ retryFeature: false })
    })

    it("dropped period notifications: the reconciliation's sweep still places exactly one order per paid period; console cancel and a refused cancel", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("dropped@example.test")
      const { subscriptionId } = await subscribe(headers, variantId, planId)
      const active = await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")

      // Every charge notification of the month is dropped: the sandbox still charges earlier tests' subscriptions
      // (only the store's database is restored between tests), and each of their notifications uses up a drop.
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
      await advanceDays(MONTH)
      expect(await renewalOrders(subscriptionId)).toHaveLength(0)
      await reconcileTwPayments(getContainer(), { force: true })
      await reconcileTwPayments(getContainer(), { force: true })
      await waitForSubscription(subscriptionId, (s) => s.periods_charged === 2 && !!s.periods[1]?.order_id, "the renewal from the sweep")
      expect(await renewalOrders(subscriptionId)).toHaveLength(1)
      await control(env.sandbox, "DELETE", "/faults")

      // Cancelled in the service's console with the new-event option off: the store still says active,
      // and a cancel from the admin is refused by the service (V0002) with a clear message, nothing changed.
      await control(env.sandbox, "POST", `/subscriptions/${active.service_subscription_id}/cancel`, { reason: "Phoned in" })
      const refused = await api.post(`/admin/tw-subscriptions/${subscriptionId}/cancel`, { reason: "Customer asked" }, { headers: admin }).catch((e: { response: unknown }) => e.response)
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/cannot cancel.*cancelled.*Nothing was changed/)
      expect((await detail(subscriptionId)).status).toBe("active")
      await reconcileTwSubscriptions(getContainer(), { force: true })
      expect((await detail(subscriptionId)).status).toBe("cancelled")
    })

    it("cancel from the admin, and from the console with the new-event option on", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("admin-cancel@example.test")
      const one = await subscribe(headers, variantId, planId)
      const two = await subscribe(headers, variantId, planId)
      const first = await waitForSubscription(one.subscriptionId, (s) => !!s.service_subscription_id && !!s.first_order_id, "the first subscription")
      const second = await waitForSubscription(two.subscriptionId, (s) => !!s.service_subscription_id && !!s.first_order_id, "the second subscription")

      // The service fails the cancel (a 5xx, nothing done there): the workflow's compensation gives the store's row back as it was.
      await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "PUT /subscriptions/{subscriptionHid}" })
      const failed = await api.post(`/admin/tw-subscriptions/${one.subscriptionId}/cancel`, { reason: "Fraud check" }, { headers: admin }).catch((e: { response: unknown }) => e.response)
      expect(failed.status).toBeGreaterThanOrEqual(400)
      expect(failed.data.message).toMatch(/no clear answer.*nothing was changed/)
      expect(await detail(one.subscriptionId)).toMatchObject({ status: "active", cancel_reason: null })
      expect((await serviceSubscription(first.service_subscription_id!)).status).toBe("active")

      const { data } = await api.post(`/admin/tw-subscriptions/${one.subscriptionId}/cancel`, { reason: "Fraud check" }, { headers: admin })
      expect(data.subscription).toMatchObject({ status: "cancelled", cancel_reason: "Fraud check" })
      const again = await api.post(`/admin/tw-subscriptions/${one.subscriptionId}/cancel`, { reason: "Twice" }, { headers: admin }).catch((e: { response: unknown }) => e.response)
      expect(again.status).toBe(400)

      await merchant({ newEventOption: true })
      await control(env.sandbox, "POST", `/subscriptions/${second.service_subscription_id}/cancel`, { reason: "Console" })
      await waitForSubscription(two.subscriptionId, (s) => s.status === "cancelled", "the console cancel notified")
      await merchant({ newEventOption: false })
      const { data: byCustomer } = await api.get(`/admin/customers/${data.subscription.customer_id}/tw-subscriptions`, { headers: admin })
      expect(byCustomer.subscriptions.map((s: { plan_title: string }) => s.plan_title)).toEqual(["Monthly", "Monthly"])
      const { data: byOrder } = await api.get(`/admin/orders/${second.first_order_id}/tw-subscriptions`, { headers: admin })
      expect(byOrder.subscriptions.map((s: { id: string; plan_title: string }) => [s.id, s.plan_title])).toEqual([[two.subscriptionId, "Monthly"]])
    })

    const serviceSubscription = async (hid: string) =>
      ((await control(env.sandbox, "GET", "/subscriptions")).subscriptions as Array<{ id: string; status: string }>).find((s) => s.id === hid)!

    /** Hosted reads (GET) the store made so far, by endpoint, from the sandbox's tally. */
    async function hostedReads(): Promise<Record<string, number>> {
      const { apiCalls } = await control(env.sandbox, "GET", "/api-calls?api=hosted")
      const reads: Record<string, number> = {}
      for (const { endpoint, calls } of apiCalls as Array<{ endpoint: string; calls: number }>) {
        if (endpoint.startsWith("GET ")) {
          reads[endpoint] = (reads[endpoint] ?? 0) + calls
        }
      }
      return reads
    }
    const readsSince = (before: Record<string, number>, after: Record<string, number>) =>
      Object.fromEntries(Object.entries(after).map(([endpoint, calls]) => [endpoint, calls - (before[endpoint] ?? 0)]).filter(([, calls]) => Number(calls) > 0))

    it("a renewal notification costs the subscription's two reads only; a forged one places nothing and reads only the subscription", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("reads@example.test")
      const { subscriptionId, session } = await subscribe(headers, variantId, planId)
      const active = await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")
      await settle()

      // The period's charge: no GET /transactions/{id}, neither in the payment pipeline nor for the renewal's payment session.
      const before = await hostedReads()
      await advanceDays(MONTH)
      await waitForSubscription(subscriptionId, (s) => s.periods_charged === 2 && !!s.periods[1]?.order_id, "the renewal order")
      const [renewal] = await waitFor(async () => {
        const orders = await renewalOrders(subscriptionId)
        const payments = (orders[0]?.payment_collections as Array<{ payments: Array<{ captured_at: string | null }> }> | undefined)?.[0]?.payments
        return payments?.[0]?.captured_at ? orders : undefined
      }, "the renewal order captured")
      await settle()
      expect(readsSince(before, await hostedReads())).toEqual({ "GET /order/{orderId}/transactions": 1, "GET /subscriptions/{id}": 1 })
      const payment = (renewal.payment_collections as Array<{ payments: Array<{ amount: number; data: Record<string, unknown> }> }>)[0].payments[0]
      expect(Number(payment.amount)).toBe(1200)
      expect(payment.data).toMatchObject({ status: "charged", customId: session.id, transactionHid: (await detail(subscriptionId)).periods[1].transaction_hid })

      // A forged period of the same subscription (a transaction the service never made): the pipeline leaves it
      // unread to the subscription workflow, whose fresh read finds nothing new.
      const forgedId = "F0rgedTransaction0000000001"
      const forged = {
        purpose: "charge",
        id: forgedId,
        transactionId: forgedId,
        transactionHid: "P2026999900000001",
        merchantId: env.sandbox.defaultMerchant.merchantId,
        orderId: session.id,
        customId: session.id,
        action: "subscription",
        status: "charged",
        success: true,
        amount: 1200,
        currency: "twd",
        subscriptionId: active.service_subscription_id,
        period: 3,
      }
      const beforeForged = await hostedReads()
      expect((await api.post(HOOK_PATH, forged)).status).toBe(200)
      await settle()
      expect(readsSince(beforeForged, await hostedReads())).toEqual({ "GET /order/{orderId}/transactions": 1, "GET /subscriptions/{id}": 1 })
      expect(await detail(subscriptionId)).toMatchObject({ periods_charged: 2 })
      expect(await renewalOrders(subscriptionId)).toHaveLength(1)
    })

    it("a renewal survives a crash at any step: one order per paid period, paid, with its transactions and order.placed (I5)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("crash@example.test")
      const { subscriptionId } = await subscribe(headers, variantId, planId)
      const active = await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")
      // The first order's order.placed runs the subscription once more: over before the clock moves, or its
      // fresh read would find the next period charged and place it before the crashes below are staged.
      await settle()
      // The period's notifications stay dropped until the end, their retries too: only the test's own runs
      // below may process the period, so no delivery runs into the crashes it stages (or uses them up).
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
      try {
        await crashAtEveryStep(subscriptionId, active.first_order_id!)
      } finally {
        await control(env.sandbox, "DELETE", "/faults")
      }
    })

    async function crashAtEveryStep(subscriptionId: string, firstOrderId: string) {
      await advanceToNextCharge(subscriptionId)
      const container = getContainer()
      const sync = () => processTwSubscriptionWorkflow(container).run({ input: { subscriptionId } })

      // 1. The run dies after creating the renewal order, before writing its id on the period; dead, it
      // cannot run its compensation either (a failure it lives through deletes the order: subscription-workflow-compensation.spec.ts).
      const module = container.resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
      const realUpdate = module.updateTwSubscriptionPeriods.bind(module)
      const periodWrite = jest.spyOn(module, "updateTwSubscriptionPeriods").mockImplementation(((data: { order_id?: string }) => {
        if (data?.order_id && data.order_id !== firstOrderId) {
          throw new Error("crash before the period names its order")
        }
        return realUpdate(data as never)
      }) as never)
      const orderDelete = jest.spyOn(container.resolve(Modules.ORDER), "deleteOrders").mockRejectedValueOnce(new Error("the process is gone"))
      await sync()
      periodWrite.mockRestore()
      orderDelete.mockRestore()
      const made = await ordersTagged(subscriptionId)
      expect(made).toHaveLength(1)

      // 2. The retry dies after the capture, before the order's transactions and order.placed.
      const orderModule = container.resolve(Modules.ORDER)
      const addTransactions = jest.spyOn(orderModule, "addOrderTransactions").mockRejectedValueOnce(new Error("crash after the capture"))
      await sync()
      addTransactions.mockRestore()
      // Half-way, the period is paid but names no order yet: no reader sees an order whose payment is not recorded.
      expect((await detail(subscriptionId)).periods[1]).toMatchObject({ status: "paid", order_id: null })
      const placed: string[] = []
      const eventBus = container.resolve(Modules.EVENT_BUS)
      const realEmit = eventBus.emit.bind(eventBus)
      const emit = jest.spyOn(eventBus, "emit").mockImplementation(((event: { name: string; data: { id: string } }, options?: unknown) => {
        if (event?.name === "order.placed") {
          placed.push(event.data.id)
        }
        return realEmit(event as never, options as never)
      }) as never)

      // 3. The next run finishes it: the same order, paid, recorded, announced.
      await sync()
      emit.mockRestore()
      const renewals = await ordersTagged(subscriptionId)
      expect(renewals.map((o) => o.id)).toEqual([made[0].id])
      expect(placed).toEqual([made[0].id])
      const { data: orders } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
        entity: "order",
        fields: ["id", "transactions.reference", "payment_collections.payments.captured_at"],
        filters: { id: made[0].id },
      })
      const order = orders[0] as { transactions: Array<{ reference: string }>; payment_collections: Array<{ payments: Array<{ captured_at: unknown }> }> }
      expect(order.transactions.map((t) => t.reference)).toEqual(["capture"])
      expect(order.payment_collections.flatMap((c) => c.payments)).toHaveLength(1)
      expect(await detail(subscriptionId)).toMatchObject({ periods_charged: 2 })
      expect((await detail(subscriptionId)).periods[1].order_id).toBe(made[0].id)
      expect(await renewalOrders(subscriptionId)).toHaveLength(1)
    }

    /** Every order tagged as a renewal of the subscription, linked to it or not. */
    async function ordersTagged(subscriptionId: string) {
      const { data } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["id", "metadata"] })
      return (data as Array<{ id: string; metadata: Record<string, unknown> | null }>).filter((o) => o.metadata?.tw_subscription_id === subscriptionId)
    }

    /** The service's subscriptions opened by one checkout session (its periods carry the session as `orderId`). */
    async function serviceSubscriptionsOf(sessionId: string) {
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${sessionId}`)
      const hids = new Set((transactions as Array<{ subscriptionId?: string }>).map((t) => t.subscriptionId).filter(Boolean))
      const { subscriptions } = await control(env.sandbox, "GET", "/subscriptions")
      return (subscriptions as Array<{ id: string; status: string }>).filter((s) => hids.has(s.id))
    }

    it("cancelled before its page is paid, every notification lost: the reconciliation refunds the page and finds and cancels the service's subscription (I3)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" }, 1234)
      const headers = await customer("cancel-pending-lost@example.test")
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId: string = created.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers })
      const session = data.payment_session as { id: string; data: { checkoutUrl: string; transactionId: string } }
      await api.post(`/store/customers/me/tw-subscriptions/${data.subscription.id}/cancel`, {}, { headers })
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await settle()
      expect((await serviceSubscriptionsOf(session.id)).map((s) => s.status)).toEqual(["active"])

      await reconcileTwPayments(getContainer(), { force: true })
      await control(env.sandbox, "DELETE", "/faults")
      expect((await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).status).toBe("refunded")
      expect((await serviceSubscriptionsOf(session.id)).map((s) => s.status)).toEqual(["cancelled"])
      expect(await detail(data.subscription.id)).toMatchObject({ status: "cancelled", service_subscription_id: expect.stringMatching(/^S/) })
    })

    /** A subscription checkout opened and left on its page; cancelled by the customer first when `cancel`. */
    async function openCheckout(email: string, variantId: string, planId: string, { cancel }: { cancel: boolean }) {
      const headers = await customer(email)
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      await api.post(`/store/carts/${created.cart.id}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${created.cart.id}/tw-subscription`, { plan_id: planId }, { headers })
      if (cancel) {
        await api.post(`/store/customers/me/tw-subscriptions/${data.subscription.id}/cancel`, {}, { headers })
      }
      return { subscriptionId: data.subscription.id as string, session: data.payment_session as { id: string; data: { checkoutUrl: string; transactionId: string } } }
    }

    /** Both pages paid at once with every charge notification lost, then both reconciliations: each service subscription fits both checkouts, and starts as near to either payment. */
    async function payTogetherUnheard(checkouts: Array<{ session: { data: { checkoutUrl: string } } }>) {
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
      await Promise.all(checkouts.map(({ session }) => payPage(session.data.checkoutUrl, card(SUCCESS_CARD))))
      await settle()
      await reconcileTwPayments(getContainer(), { force: true })
      await reconcileTwSubscriptions(getContainer(), { force: true })
      await control(env.sandbox, "DELETE", "/faults")
    }

    it("two checkouts of one plan cancelled before their pages, both paid within a second, every notification lost: both refunded and both service subscriptions cancelled (I3)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" }, 1236)
      const checkouts = [
        await openCheckout("twin-a@example.test", variantId, planId, { cancel: true }),
        await openCheckout("twin-b@example.test", variantId, planId, { cancel: true }),
      ]
      await payTogetherUnheard(checkouts)
      for (const { subscriptionId, session } of checkouts) {
        expect((await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).status).toBe("refunded")
        expect((await serviceSubscriptionsOf(session.id)).map((s) => s.status)).toEqual(["cancelled"])
        expect(await detail(subscriptionId)).toMatchObject({ status: "cancelled", first_order_id: null })
      }
    })

    it("the same with one of the two checkouts live, paid a second apart: only the ended checkout's service subscription is cancelled, told apart by whose payment its start is nearest (I3)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" }, 1237)
      const live = await openCheckout("twin-live@example.test", variantId, planId, { cancel: false })
      const ended = await openCheckout("twin-ended@example.test", variantId, planId, { cancel: true })
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
      await payPage(live.session.data.checkoutUrl, card(SUCCESS_CARD))
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      await payPage(ended.session.data.checkoutUrl, card(SUCCESS_CARD))
      await settle()
      await reconcileTwPayments(getContainer(), { force: true })
      await reconcileTwSubscriptions(getContainer(), { force: true })
      await control(env.sandbox, "DELETE", "/faults")

      expect((await control(env.sandbox, "GET", `/transactions/${ended.session.data.transactionId}`)).status).toBe("refunded")
      expect((await serviceSubscriptionsOf(ended.session.id)).map((s) => s.status)).toEqual(["cancelled"])
      expect((await serviceSubscriptionsOf(live.session.id)).map((s) => s.status)).toEqual(["active"])
      expect(await detail(live.subscriptionId)).toMatchObject({ status: "active" })
      expect(await detail(ended.subscriptionId)).toMatchObject({ status: "cancelled", service_subscription_id: (await serviceSubscriptionsOf(ended.session.id))[0].id })
    })

    it("an active subscription whose notifications were all lost can still be cancelled at once: its S number is found in the service's list", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" }, 1235)
      const headers = await customer("cancel-unnumbered@example.test")
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
      const { cartId, subscriptionId, session } = await subscribe(headers, variantId, planId)
      await api.post(`/store/carts/${cartId}/complete`, {}, { headers })
      await control(env.sandbox, "DELETE", "/faults")
      await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id, "the first order")
      expect((await detail(subscriptionId)).service_subscription_id).toBeNull()

      const { data } = await api.post(`/store/customers/me/tw-subscriptions/${subscriptionId}/cancel`, {}, { headers })
      expect(data.subscription).toMatchObject({ status: "cancelled", service_subscription_id: expect.stringMatching(/^S/) })
      expect((await serviceSubscriptionsOf(session.id)).map((s) => s.status)).toEqual(["cancelled"])
    })

    it("a subscription checkout whose cart changed (its session dropped) and whose old page is paid anyway: refunded and ended at the service too (I3)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const other = await productWithPlan({ title: "Other", kind: "monthly" }, 300)
      const headers = await customer("cart-changed@example.test")
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId: string = created.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers })
      const session = data.payment_session as { id: string; data: { checkoutUrl: string; transactionId: string } }
      // The cart changes: Medusa drops the collection's sessions, the subscription's checkout with them.
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: other.variantId, quantity: 1 }, { headers })
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))

      await waitFor(async () => (await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).status === "refunded", "the page's payment refunded")
      const atService = await waitFor(async () => {
        const subs = await serviceSubscriptionsOf(session.id)
        return subs.length && subs.every((s) => s.status === "cancelled") ? subs : undefined
      }, "the service's subscription cancelled")
      expect(atService).toHaveLength(1)
      expect(await detail(data.subscription.id)).toMatchObject({ status: "cancelled", first_order_id: null, cancel_reason: expect.stringMatching(/checkout was replaced or abandoned/) })
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
    })

    it("the merchant cancels a subscription's first order: the subscription ends and the service stops charging (I1, I3)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("order-cancelled@example.test")
      const { subscriptionId, session } = await subscribe(headers, variantId, planId)
      const active = await waitForSubscription(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")

      await api.post(`/admin/orders/${active.first_order_id}/cancel`, {}, { headers: admin })
      await waitFor(async () => (await serviceSubscription(active.service_subscription_id!)).status === "cancelled", "the service's subscription cancelled")
      expect(await detail(subscriptionId)).toMatchObject({ status: "cancelled", cancel_reason: expect.stringMatching(/first order .* was cancelled/) })

      await advanceDays(MONTH)
      await reconcileTwSubscriptions(getContainer(), { force: true })
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${session.id}`)
      expect(transactions).toHaveLength(1)
      expect(await renewalOrders(subscriptionId)).toHaveLength(0)
    })

    it("a subscription cancelled before its page is paid never charges: the late payment is refunded, its service subscription cancelled, the cart not completed (I3)", async () => {
      const { variantId, planId } = await productWithPlan({ title: "Monthly", kind: "monthly" })
      const headers = await customer("cancel-pending@example.test")
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId: string = created.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers })
      const subscriptionId: string = data.subscription.id
      const session = data.payment_session as { id: string; data: { checkoutUrl: string; transactionId: string } }

      const { data: cancelled } = await api.post(`/store/customers/me/tw-subscriptions/${subscriptionId}/cancel`, {}, { headers })
      expect(cancelled.subscription.status).toBe("cancelled")
      // The page stays payable at the service (it cannot be voided): the shopper pays it anyway.
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await settle()
      const completion = await api.post(`/store/carts/${cartId}/complete`, {}, { headers }).catch((e: { response: unknown }) => e.response)
      expect(completion.data?.type).not.toBe("order")
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()

      await waitFor(async () => (await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)).status === "refunded", "the page's payment refunded")
      const atService = await waitFor(async () => {
        const subs = await serviceSubscriptionsOf(session.id)
        return subs.length && subs.every((s) => s.status === "cancelled") ? subs : undefined
      }, "the service's subscription cancelled")
      expect(atService).toHaveLength(1)
      expect(await detail(subscriptionId)).toMatchObject({ status: "cancelled", first_order_id: null })

      // A month on, nothing is charged.
      await advanceDays(MONTH)
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${session.id}`)
      expect((transactions as Array<{ status: string }>).map((t) => t.status)).toEqual(["refunded"])
      expect(await renewalOrders(subscriptionId)).toHaveLength(0)
    })
  },
})
