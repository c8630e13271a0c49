import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { storeTestRunner } from "../helpers/store-runner"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../src/modules/tw-subscription"
import { createTwRenewalOrderWorkflow } from "../../src/workflows/subscriptions/create-tw-renewal-order"
import { processTwSubscriptionWorkflow, type SubscriptionStateChange, subscriptionLockKey } from "../../src/workflows/subscriptions/process-tw-subscription"
import { adminToken, card, control, createProductWithPlan, orderOfCart, payPage, seedStore, settle, type Store, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
import { failLockRelease, lockIsFree } from "../helpers/locks"

jest.setTimeout(240_000)
/** Binds and pays the first charge; every later charge is refused (`payment_refused`), as in subscriptions.spec.ts. */
const LATER_REFUSED_CARD = "4000000000010050"
const DAY = 24 * 3600
// The subscription workflow runs when a test says (and on the deliveries a test lets through).
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

/** What the merchant's hook handlers were given; while `failChangeTo` is set, a change to that status makes the handler throw, and while `failRenewals` is, every renewal's. */
const stateChanges: SubscriptionStateChange[] = []
const renewalsCreated: Array<{ subscription_id: string; order_id: string; period: number }> = []
let failChangeTo: string | undefined
let failRenewals = false

/**
 * `process-tw-subscription` and `create-tw-renewal-order`, failed half-way
 * on purpose (a module call made to throw, a merchant's hook that throws):
 * the compensations leave no trace of the steps that had run (no
 * half-written period, no unpaid renewal order, no link, the row's status as
 * it was), and a clean run afterwards succeeds. The hooks fire with what
 * changed.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: { authorization: string }
    beforeAll(() => {
      // One handler per hook, as a project's src/workflows/hooks file would register it.
      processTwSubscriptionWorkflow.hooks.subscriptionStateChanged(async (change) => {
        if (change.status === failChangeTo) {
          throw new Error("forced: the merchant's hook failed")
        }
        stateChanges.push(change)
      })
      createTwRenewalOrderWorkflow.hooks.renewalOrderCreated(async (created) => {
        if (failRenewals) {
          throw new Error("forced: the merchant's hook failed")
        }
        renewalsCreated.push(created)
      })
    })
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      admin = await adminToken(api, getContainer())
    })
    afterEach(async () => {
      jest.restoreAllMocks()
      failChangeTo = undefined
      failRenewals = false
      await control(env.sandbox, "DELETE", "/faults")
    })

    const subscriptionModule = () => getContainer().resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const sync = (subscriptionId: string) => processTwSubscriptionWorkflow(getContainer()).run({ input: { subscriptionId }, throwOnError: false })

    async function customer(email: string) {
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { ...store.headers, authorization: `Bearer ${login.token}` }
    }

    /** A subscription (monthly unless `plan` says otherwise) whose page the shopper paid with `cardNumber`. */
    async function subscribe(email: string, plan: Record<string, unknown> = { title: "Monthly", kind: "monthly" }, cardNumber = SUCCESS_CARD) {
      const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, plan)
      const headers = await customer(email)
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId: string = created.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers })
      await payPage(data.payment_session.data.checkoutUrl, card(cardNumber))
      return { headers, cartId, subscriptionId: data.subscription.id as string }
    }

    /** The row, its periods (deleted ones too) and the orders linked to it: everything a sync writes in the store. */
    async function subscriptionTraces(id: string) {
      const row = await subscriptionModule().retrieveTwSubscription(id)
      const periods = await subscriptionModule().listTwSubscriptionPeriods({ subscription_id: id }, { withDeleted: true, order: { period: "ASC" } })
      const { data } = await query().graph({ entity: "tw_subscription", fields: ["id", "orders.id"], filters: { id } })
      const linked = ((data[0] as { orders?: Array<{ id: string } | null> }).orders ?? []).flatMap((o) => (o ? [o.id] : []))
      return {
        status: row.status,
        periods_charged: row.periods_charged,
        first_order_id: row.first_order_id,
        service_subscription_id: row.service_subscription_id,
        cancelled_at: row.cancelled_at,
        synced_at: row.synced_at,
        periods: periods.map((p) => ({ period: p.period, status: p.status, order_id: p.order_id, order_paid: p.order_paid, deleted: !!p.deleted_at })),
        linked,
      }
    }

    /** Every order tagged as a renewal of the subscription, deleted ones too. */
    async function renewalOrdersTagged(id: string) {
      const orders = await getContainer().resolve(Modules.ORDER).listOrders({}, { select: ["id", "metadata", "deleted_at"], withDeleted: true })
      return orders.filter((o) => (o.metadata as Record<string, unknown> | null)?.tw_subscription_id === id)
    }

    const paymentCollections = async () => (await getContainer().resolve(Modules.PAYMENT).listPaymentCollections({}, { select: ["id"], withDeleted: true })).map((c) => c.id).sort()

    const waitForRow = (id: string, ready: (row: Awaited<ReturnType<typeof subscriptionTraces>>) => boolean, what: string) =>
      waitFor(async () => {
        const traces = await subscriptionTraces(id)
        return ready(traces) ? traces : undefined
      }, what)

    describe("process-tw-subscription", () => {
      it("linking the first order fails after the read was recorded: the row, its periods and its links are as before; a clean run then records it", async () => {
        // Every notification lost: only the workflow runs below (and the first order's order.placed) tell the store.
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
        const { headers, cartId, subscriptionId } = await subscribe("link-fails@example.test")
        const link = getContainer().resolve(ContainerRegistrationKeys.LINK)
        const create = link.create.bind(link)
        const linkCreate = jest.spyOn(link, "create").mockImplementation(((definition: Record<string, unknown>) => {
          if (JSON.stringify(definition).includes(TW_SUBSCRIPTION_MODULE)) {
            return Promise.reject(new Error("forced: the link table is locked"))
          }
          return create(definition as never)
        }) as never)

        // The shopper completes the cart: the order is placed, and its order.placed runs the workflow, which fails too.
        const { data: completed } = await api.post(`/store/carts/${cartId}/complete`, {}, { headers })
        expect(completed.type).toBe("order")
        await settle()
        const before = await subscriptionTraces(subscriptionId)
        expect(before).toEqual({ status: "pending", periods_charged: 0, first_order_id: null, service_subscription_id: null, cancelled_at: null, synced_at: null, periods: [], linked: [] })

        const record = jest.spyOn(subscriptionModule(), "recordServiceState")
        const restore = jest.spyOn(subscriptionModule(), "restoreServiceState")
        const { errors } = await sync(subscriptionId)
        expect(errors.map((e) => e.error?.message)).toEqual(["forced: the link table is locked"])
        expect(linkCreate).toHaveBeenCalled()
        // The service's state was recorded (period 1 paid, active), then put back: no half-written period.
        expect(record.mock.calls.map(([state, periods]) => [state.status, periods.map((p) => [p.period, p.status])])).toEqual([["active", [[1, "paid"]]]])
        expect(restore).toHaveBeenCalledTimes(1)
        expect(await subscriptionTraces(subscriptionId)).toEqual(before)
        expect(stateChanges.filter((c) => c.subscription_id === subscriptionId)).toEqual([])

        linkCreate.mockRestore()
        const { result, errors: none } = await sync(subscriptionId)
        expect(none).toEqual([])
        expect(result).toEqual({ status: "active", placed: [], failed: [] })
        const after = await subscriptionTraces(subscriptionId)
        expect(after).toMatchObject({ status: "active", periods_charged: 1, first_order_id: completed.order.id, periods: [{ period: 1, status: "paid", order_id: completed.order.id, order_paid: true, deleted: false }], linked: [completed.order.id] })
        expect(after.synced_at).not.toBeNull()
        expect(stateChanges.filter((c) => c.subscription_id === subscriptionId)).toEqual([{ subscription_id: subscriptionId, previous_status: "pending", status: "active" }])
      })

      it("the lock's release fails after the first order was placed for a shopper who never came back: the order stands (the shopper's), the recorded state is put back; the next run (order.placed's) links that same order", async () => {
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
        const { cartId, subscriptionId } = await subscribe("first-order-stands@example.test")
        const lockKey = subscriptionLockKey(subscriptionId)
        const restore = jest.spyOn(subscriptionModule(), "restoreServiceState")

        failLockRelease(getContainer(), lockKey)
        const { errors } = await sync(subscriptionId)
        expect(errors.map((e) => e.error?.message)).toEqual(["forced: the lock store went away"])
        const order = await orderOfCart(getContainer(), cartId)
        expect(order).toBeDefined()
        // The row as the run found it (pending, no order, no period) was put back; the order's own run then follows.
        expect(restore.mock.calls[0].slice(0, 2)).toEqual([expect.objectContaining({ status: "pending", first_order_id: null, periods_charged: 0 }), []])

        await settle()
        expect(await subscriptionTraces(subscriptionId)).toMatchObject({ status: "active", first_order_id: order!.id, linked: [order!.id] })
        expect(await orderOfCart(getContainer(), cartId)).toMatchObject({ id: order!.id })
        expect(await lockIsFree(getContainer(), lockKey)).toBe(true)
      })

      it("the merchant's subscriptionStateChanged hook throws: the cancel seen at the service is not recorded; once the hook passes, it is, with previous and new status", async () => {
        const { subscriptionId } = await subscribe("hook-fails@example.test")
        const active = await waitForRow(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")
        // Every run the page's deliveries started is over: only the runs below read the subscription.
        await settle()
        const before = await subscriptionTraces(subscriptionId)
        expect(stateChanges.filter((c) => c.subscription_id === subscriptionId)).toEqual([{ subscription_id: subscriptionId, previous_status: "pending", status: "active" }])

        // Cancelled in the service's console, its notification off: the next sync sees it.
        await control(env.sandbox, "POST", `/subscriptions/${active.service_subscription_id}/cancel`, { reason: "Phoned in" })
        failChangeTo = "cancelled"
        const { errors } = await sync(subscriptionId)
        expect(errors.map((e) => e.error?.message)).toEqual(["forced: the merchant's hook failed"])
        expect(await subscriptionTraces(subscriptionId)).toEqual(before)

        failChangeTo = undefined
        const { result } = await sync(subscriptionId)
        expect(result).toEqual({ status: "cancelled", placed: [], failed: [] })
        expect(await subscriptionTraces(subscriptionId)).toMatchObject({ status: "cancelled", cancelled_at: expect.any(Date), periods: active.periods })
        expect(stateChanges.filter((c) => c.subscription_id === subscriptionId)).toEqual([
          { subscription_id: subscriptionId, previous_status: "pending", status: "active" },
          { subscription_id: subscriptionId, previous_status: "active", status: "cancelled" },
        ])
        // A run that changes nothing does not call it.
        await sync(subscriptionId)
        expect(stateChanges.filter((c) => c.subscription_id === subscriptionId)).toHaveLength(2)
      })
    })

    describe("create-tw-renewal-order", () => {
      it("the renewal's payment fails after its order was created, named and linked: no order, collection, link or period mark is left; a run failed after the capture (its hook), then a sync failed at its lock's release, leave the paid order standing; it is then the one paid renewal order, its hook run once", async () => {
        const { subscriptionId } = await subscribe("renewal-fails@example.test")
        const active = await waitForRow(subscriptionId, (s) => s.status === "active" && !!s.first_order_id && !!s.service_subscription_id, "the active subscription")
        await settle()
        // Period 2 is charged with its notification lost: the sync below is what places its order.
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
        const { next_charge_at: due } = await subscriptionModule().retrieveTwSubscription(subscriptionId)
        const { now } = await control(env.sandbox, "GET", "/clock")
        await control(env.sandbox, "POST", "/clock/advance", { seconds: Math.ceil((new Date(due!).getTime() - Date.parse(now)) / 1000) + 60 })
        await settle()
        const collectionsBefore = await paymentCollections()

        const payments = getContainer().resolve(Modules.PAYMENT)
        const authorize = jest.spyOn(payments, "authorizePaymentSession").mockRejectedValueOnce(new Error("forced: the payment module went away"))
        const deleteOrders = jest.spyOn(getContainer().resolve(Modules.ORDER), "deleteOrders")
        const deleteCollections = jest.spyOn(payments, "deletePaymentCollections")
        const { result: failed, errors } = await sync(subscriptionId)
        expect(authorize).toHaveBeenCalledTimes(1)
        // The order, its collection (with the session the authorization was for) were made, then undone.
        expect(deleteOrders).toHaveBeenCalledTimes(1)
        expect(deleteCollections).toHaveBeenCalledTimes(1)
        // The read is recorded (period 2 paid); only its renewal failed, and is reported.
        expect(errors).toEqual([])
        expect(failed).toEqual({ status: "active", placed: [], failed: [2] })
        expect(await renewalOrdersTagged(subscriptionId)).toEqual([])
        expect(await paymentCollections()).toEqual(collectionsBefore)
        expect(await subscriptionTraces(subscriptionId)).toMatchObject({
          periods_charged: 2,
          periods: [
            { period: 1, status: "paid", order_id: active.first_order_id, order_paid: true, deleted: false },
            { period: 2, status: "paid", order_id: null, order_paid: false, deleted: false },
          ],
          linked: [active.first_order_id],
        })
        expect(renewalsCreated.filter((r) => r.subscription_id === subscriptionId)).toEqual([])

        // The next renewal run fails after its payment was authorized and captured (the merchant's hook throws): the order and its capture stand, the period is not marked paid.
        failRenewals = true
        const { result: hookFailed } = await sync(subscriptionId)
        failRenewals = false
        expect(hookFailed).toEqual({ status: "active", placed: [], failed: [2] })
        const kept = (await renewalOrdersTagged(subscriptionId)).map((o) => o.id)
        expect(kept).toHaveLength(1)
        expect((await subscriptionTraces(subscriptionId)).periods[1]).toMatchObject({ period: 2, order_paid: false })

        // A sync whose last step, the lock's release, fails: the renewal run it made stands (its own run), and the lock is given back.
        failLockRelease(getContainer(), subscriptionLockKey(subscriptionId))
        const { errors: unlockFailed } = await sync(subscriptionId)
        expect(unlockFailed.map((e) => e.error?.message)).toEqual(["forced: the lock store went away"])
        expect((await renewalOrdersTagged(subscriptionId)).map((o) => o.id)).toEqual(kept)
        expect(await lockIsFree(getContainer(), subscriptionLockKey(subscriptionId))).toBe(true)

        // That sync's renewal run made the kept order the period's paid order, and its undo left that so.
        const [orderId] = kept
        expect((await renewalOrdersTagged(subscriptionId)).map((o) => o.id)).toEqual([orderId])
        const traces = await subscriptionTraces(subscriptionId)
        expect(traces.periods[1]).toEqual({ period: 2, status: "paid", order_id: orderId, order_paid: true, deleted: false })
        expect(traces.linked.sort()).toEqual([active.first_order_id, orderId].sort())
        const { data: orders } = await query().graph({ entity: "order", fields: ["id", "transactions.reference", "payment_collections.payments.amount", "payment_collections.payments.captured_at"], filters: { id: orderId } })
        const order = orders[0] as { transactions: Array<{ reference: string }>; payment_collections: Array<{ payments: Array<{ amount: unknown; captured_at: unknown }> }> }
        expect(order.transactions.map((t) => t.reference)).toEqual(["capture"])
        const [payment] = order.payment_collections.flatMap((c) => c.payments)
        expect(Number(payment.amount)).toBe(1200)
        expect(payment.captured_at).toBeTruthy()
        // Once for the one order: the failed sync's renewal run recorded it, and that sync's compensation left the period's order as the run left it.
        expect(renewalsCreated.filter((r) => r.subscription_id === subscriptionId)).toEqual([{ subscription_id: subscriptionId, order_id: orderId, period: 2 }])

        // Nothing left to do: a further run places nothing.
        expect((await sync(subscriptionId)).result).toEqual({ status: "active", placed: [], failed: [] })
      })
    })

    // Last in the file: these move the sandbox's clock days ahead.
    describe("a later first charge", () => {
      /** Subscribed on a schedule whose first charge is 10 days out, its order placed awaiting it; then the day passes with the charge's notification lost. */
      async function laterFirstChargeDue(email: string, cardNumber: string) {
        // The store dates the first charge from its own clock; the service checks it against the sandbox's, which an earlier test may have moved ahead.
        const { now } = await control(env.sandbox, "GET", "/clock")
        const ahead = Math.ceil((Date.parse(now) - Date.now()) / (DAY * 1000))
        const plan = { title: "Later", kind: "scheduled", interval_months: 1, periods: 3, first_charge_delay_days: ahead + 10 }
        const { cartId, subscriptionId } = await subscribe(email, plan, cardNumber)
        // The shopper never comes back: the schedule's notification places the order.
        await waitForRow(subscriptionId, (s) => s.status === "pending_first_charge" && !!s.first_order_id, "the order placed awaiting the first charge")
        await settle()
        await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 1000 })
        await control(env.sandbox, "POST", "/clock/advance", { seconds: 11 * DAY })
        const order = await orderOfCart(getContainer(), cartId)
        return { cartId, subscriptionId, orderId: order!.id, lockKey: subscriptionLockKey(subscriptionId) }
      }

      it("the lock's release fails after the first order was captured with the service's charge: the capture stands; the next run records the period once, with that order, captured once", async () => {
        const { cartId, subscriptionId, orderId, lockKey } = await laterFirstChargeDue("later-capture-stands@example.test", SUCCESS_CARD)
        failLockRelease(getContainer(), lockKey)
        expect((await sync(subscriptionId)).errors.map((e) => e.error?.message)).toEqual(["forced: the lock store went away"])
        const capturedOnce = async () => {
          const order = await orderOfCart(getContainer(), cartId)
          const [payment, ...others] = order!.payment_collections![0]!.payments!
          expect(others).toEqual([])
          expect(payment!.captured_at).toBeTruthy()
          const { data } = await query().graph({ entity: "payment", fields: ["id", "captures.id"], filters: { id: payment!.id } })
          expect((data[0] as { captures: unknown[] }).captures).toHaveLength(1)
        }
        await capturedOnce()

        jest.restoreAllMocks()
        expect((await sync(subscriptionId)).errors).toEqual([])
        expect(await subscriptionTraces(subscriptionId)).toMatchObject({
          status: "active",
          periods_charged: 1,
          first_order_id: orderId,
          periods: [{ period: 1, status: "paid", order_id: orderId, order_paid: true, deleted: false }],
        })
        await capturedOnce()
        expect(await lockIsFree(getContainer(), lockKey)).toBe(true)
      })

      it("the lock's release fails after the first order was cancelled for a refused first charge: the cancel stands; the next run records the stop and reports it again, the order still cancelled with no payment", async () => {
        const { cartId, subscriptionId, orderId, lockKey } = await laterFirstChargeDue("later-cancel-stands@example.test", LATER_REFUSED_CARD)
        failLockRelease(getContainer(), lockKey)
        expect((await sync(subscriptionId)).errors.map((e) => e.error?.message)).toEqual(["forced: the lock store went away"])
        expect(await orderOfCart(getContainer(), cartId)).toMatchObject({ id: orderId, status: "canceled" })

        jest.restoreAllMocks()
        expect((await sync(subscriptionId)).errors).toEqual([])
        expect(await subscriptionTraces(subscriptionId)).toMatchObject({ status: "stopped", first_order_id: orderId, periods: [{ period: 1, status: "failed", deleted: false }] })
        const order = await orderOfCart(getContainer(), cartId)
        expect(order).toMatchObject({ id: orderId, status: "canceled" })
        expect(order!.payment_collections![0]!.payments).toEqual([])
        // The failed run's report was undone with what it recorded (a handler's compensation is told), so the clean run reports it again.
        const stopped = { subscription_id: subscriptionId, previous_status: "pending_first_charge", status: "stopped" }
        expect(stateChanges.filter((change) => change.subscription_id === subscriptionId && change.status === "stopped")).toEqual([stopped, stopped])
        expect(await lockIsFree(getContainer(), lockKey)).toBe(true)
      })
    })
  },
})
