import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeTestRunner } from "../helpers/store-runner"
import { TW_SUBSCRIPTION_MODULE, type TwSubscriptionModuleService } from "../../src/modules/tw-subscription"
import { adminToken, control, createProductWithPlan, seedStore, type Store, useSandbox } from "../helpers/hosted-store"

jest.setTimeout(240_000)
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

type Answer = { status: number; data: { message?: string } & Record<string, unknown> }
const rejected = (e: { response: Answer }) => e.response

/**
 * Each workflow of the store's routes, failed half-way on purpose (a service
 * fault, or a module call made to throw): the answer is an error, and the
 * compensations leave no trace of the steps that had run. Then the same
 * request, without the fault, succeeds: nothing left behind blocks it.
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
    afterEach(async () => {
      jest.restoreAllMocks()
      await control(env.sandbox, "DELETE", "/faults")
    })

    const subscriptionModule = () => getContainer().resolve<TwSubscriptionModuleService>(TW_SUBSCRIPTION_MODULE)
    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)

    async function customer(email: string) {
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      const { data } = await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { id: data.customer.id as string, headers: { ...store.headers, authorization: `Bearer ${login.token}` } }
    }

    /** A guest's cart of the plan's variant: the checkout gives it to the customer (a step of its own to undo). */
    async function guestCart(variantId: string) {
      const { data } = await api.post("/store/carts", { region_id: store.regionId }, { headers: store.headers })
      await api.post(`/store/carts/${data.cart.id}/line-items`, { variant_id: variantId, quantity: 1 }, { headers: store.headers })
      return data.cart.id as string
    }

    /** Everything a subscription checkout writes, for the cart and the customer. */
    async function checkoutTraces(cartId: string, customerId: string) {
      const rows = await subscriptionModule().listTwSubscriptions({ cart_id: cartId }, { withDeleted: true })
      const { data: carts } = await query().graph({ entity: "cart", fields: ["customer_id", "payment_collection.id"], filters: { id: cartId } })
      // The link table itself (src/links/tw-subscription-customer.ts): a link to a deleted row would not show through Query.
      const links = await getContainer()
        .resolve(ContainerRegistrationKeys.PG_CONNECTION)("customer_customer_tw_subscription_tw_subscription")
        .where({ customer_id: customerId })
        .whereNull("deleted_at")
        .select("tw_subscription_id")
      const { data: sessions } = await query().graph({ entity: "payment_session", fields: ["id"] })
      const { data: collections } = await query().graph({ entity: "payment_collection", fields: ["id"] })
      const cart = carts[0] as { customer_id: string | null; payment_collection?: { id: string } | null }
      return {
        subscriptions: rows.map((row) => row.id),
        cartCustomer: cart.customer_id,
        cartCollection: cart.payment_collection?.id ?? null,
        customerLinks: links,
        sessions,
        collections,
      }
    }
    const NO_TRACE = { subscriptions: [], cartCustomer: null, cartCollection: null, customerLinks: [], sessions: [], collections: [] }

    describe("start-tw-subscription-checkout", () => {
      it("the service fails the page (POST /checkout-subscription 500): no subscription, link, collection or session, the cart the guest's again; then it succeeds", async () => {
        const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" })
        const shopper = await customer("checkout-fault@example.test")
        const cartId = await guestCart(variantId)

        await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /checkout-subscription", count: 10 })
        const failed: Answer = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers: shopper.headers }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await checkoutTraces(cartId, shopper.id)).toEqual(NO_TRACE)

        await control(env.sandbox, "DELETE", "/faults")
        const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers: shopper.headers })
        expect(await checkoutTraces(cartId, shopper.id)).toMatchObject({
          subscriptions: [data.subscription.id],
          cartCustomer: shopper.id,
          customerLinks: [{ tw_subscription_id: data.subscription.id }],
          sessions: [{ id: data.payment_session.id }],
        })
      })

      it("a failure after the session exists (recording it on the subscription): the session, the collection, the link and the row are undone", async () => {
        const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Every 2 months", kind: "scheduled", interval_months: 2 })
        const shopper = await customer("checkout-last-step@example.test")
        const cartId = await guestCart(variantId)

        const module = subscriptionModule()
        const update = module.updateTwSubscriptions.bind(module)
        jest.spyOn(module, "updateTwSubscriptions").mockImplementation(((data: { payment_session_id?: string | null }) => {
          if (data?.payment_session_id) {
            return Promise.reject(new Error("forced: the database went away"))
          }
          return update(data as never)
        }) as never)
        const failed: Answer = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers: shopper.headers }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await checkoutTraces(cartId, shopper.id)).toEqual(NO_TRACE)
      })
    })

    describe("create-tw-subscription-plan", () => {
      it("the link to the variant fails: no plan is left", async () => {
        const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" })
        jest.spyOn(getContainer().resolve(ContainerRegistrationKeys.LINK), "create").mockRejectedValueOnce(new Error("forced: the link table is locked"))

        const failed: Answer = await api.post(`/admin/product-variants/${variantId}/tw-subscription-plans`, { title: "Yearly", kind: "scheduled", interval_months: 12 }, { headers: admin }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        const plans = await subscriptionModule().listTwSubscriptionPlans({ variant_id: variantId }, { withDeleted: true })
        expect(plans.map((plan) => plan.id)).toEqual([planId])

        const { data } = await api.post(`/admin/product-variants/${variantId}/tw-subscription-plans`, { title: "Yearly", kind: "scheduled", interval_months: 12 }, { headers: admin })
        const { data: variants } = await query().graph({ entity: "product_variant", fields: ["tw_subscription_plans.id"], filters: { id: variantId } })
        const linked = (variants[0] as { tw_subscription_plans: Array<{ id: string }> }).tw_subscription_plans.map((plan) => plan.id)
        expect(linked.sort()).toEqual([planId, data.plan.id].sort())
      })
    })

    describe("update-tw-subscription-plan", () => {
      it("a change that breaks the monthly rule against the stored plan is refused and changes nothing; a valid one is written", async () => {
        const { planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" })
        // The request alone looks valid (no kind given); only the stored plan says it is monthly.
        const refused: Answer = await api.post(`/admin/tw-subscription-plans/${planId}`, { interval_months: 3, title: "Quarterly" }, { headers: admin }).catch(rejected)
        expect(refused.status).toBe(400)
        expect(refused.data.message).toMatch(/a monthly plan charges every month/)
        expect((await subscriptionModule().listTwSubscriptionPlans({ id: planId }))[0]).toMatchObject({ title: "Monthly", interval_months: 1 })

        const { data } = await api.post(`/admin/tw-subscription-plans/${planId}`, { kind: "scheduled", interval_months: 3, title: "Quarterly" }, { headers: admin })
        expect(data.plan).toMatchObject({ id: planId, title: "Quarterly", kind: "scheduled", interval_months: 3 })
        const missing: Answer = await api.post(`/admin/tw-subscription-plans/twplan_missing`, { title: "x" }, { headers: admin }).catch(rejected)
        expect(missing.status).toBe(404)
      })
    })

    describe("delete-tw-subscription-plan", () => {
      it("removing the link fails: the plan is restored, still offered and still linked", async () => {
        const { variantId, planId, productId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" })
        jest.spyOn(getContainer().resolve(ContainerRegistrationKeys.LINK), "delete").mockRejectedValueOnce(new Error("forced: the link table is locked"))

        const failed: Answer = await api.delete(`/admin/tw-subscription-plans/${planId}`, { headers: admin }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        const [plan] = await subscriptionModule().listTwSubscriptionPlans({ id: planId }, { withDeleted: true })
        expect(plan.deleted_at).toBeNull()
        const { data: offered } = await api.get(`/store/tw-subscription-plans?product_id=${productId}`, { headers: store.headers })
        expect(offered.plans.map((p: { id: string }) => p.id)).toEqual([planId])

        const { data } = await api.delete(`/admin/tw-subscription-plans/${planId}`, { headers: admin })
        expect(data).toEqual({ id: planId, object: "tw_subscription_plan", deleted: true })
        const { data: variants } = await query().graph({ entity: "product_variant", fields: ["tw_subscription_plans.id"], filters: { id: variantId } })
        expect((variants[0] as { tw_subscription_plans?: unknown[] }).tw_subscription_plans ?? []).toEqual([])
      })
    })
  },
})
