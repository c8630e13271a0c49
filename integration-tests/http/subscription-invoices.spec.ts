import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeTestRunner } from "../helpers/store-runner"
import { adminToken, card, control, createProductWithPlan, payPage, seedStore, settle, type Store, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"

jest.setTimeout(240_000)
// Notifications only: the reconciliation would race the test's own reads.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()
// The store issues e-invoices (as does the sandbox's merchant, below).
beforeAll(() => {
  process.env.TW_EINVOICE = "true"
})

type Headers = Record<string, string>
interface ProductDetail {
  productionCode: string
  description: string
  quantity: number
  unit: string
  unitPrice: number
}

/**
 * With e-invoices on, a subscription is invoiced on the cart's lines, as a
 * one-time page is (docs/providers.md, "E-invoices"): its page, and every
 * renewal period, whose refund then carries shares of those lines.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: { authorization: string }
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      admin = await adminToken(api, getContainer())
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { einvoiceActive: true })
    })

    async function customer(email: string): Promise<Headers> {
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { ...store.headers, authorization: `Bearer ${login.token}` }
    }

    const detail = async (id: string) => (await api.get(`/admin/tw-subscriptions/${id}`, { headers: admin })).data.subscription

    async function renewalPayment(subscriptionId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "tw_subscription",
        fields: ["id", "orders.metadata", "orders.payment_collections.payments.id", "orders.payment_collections.payments.data"],
        filters: { id: subscriptionId },
      })
      type Order = { metadata: Record<string, unknown> | null; payment_collections: Array<{ payments: Array<{ id: string; data: Record<string, unknown> }> }> }
      const renewal = ((data[0] as { orders?: Order[] })?.orders ?? []).find((order) => order?.metadata?.tw_subscription_period)
      return renewal?.payment_collections?.[0]?.payments?.[0]
    }

    it("a monthly subscription's page and renewal are invoiced on the cart's lines; a renewal's refund shares them out", async () => {
      const { variantId, planId } = await createProductWithPlan(api, getContainer(), store, admin, { title: "Monthly", kind: "monthly" }, 1200)
      const headers = await customer("invoiced@example.test")
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers })
      const cartId: string = created.cart.id
      const { data: withItem } = await api.post(`/store/carts/${cartId}/line-items`, { variant_id: variantId, quantity: 1 }, { headers })
      const productTitle: string = withItem.cart.items[0].product_title
      const { data: started } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: planId }, { headers })

      // The page: the cart's one line (the product, not the provider's "Order" line), kept on the session.
      const page = await control(env.sandbox, "GET", `/transactions/${started.payment_session.data.transactionId}`)
      const invoiced: ProductDetail[] = page.productDetails
      expect(invoiced).toEqual([expect.objectContaining({ description: productTitle, quantity: 1, unitPrice: 1200 })])
      expect(started.payment_session.data.invoiceLines).toEqual(invoiced)

      await payPage(started.payment_session.data.checkoutUrl, card(SUCCESS_CARD))
      const subscriptionId: string = started.subscription.id
      // With its S number, hence its next charge: the first order's own sync may record the period before the notification names the subscription.
      await waitFor(async () => {
        const s = await detail(subscriptionId)
        return s.status === "active" && s.first_order_id && s.service_subscription_id ? s : undefined
      }, "the active subscription")

      // The next month's charge and its renewal order.
      const { next_charge_at: due } = await detail(subscriptionId)
      const { now } = await control(env.sandbox, "GET", "/clock")
      await control(env.sandbox, "POST", "/clock/advance", { seconds: Math.ceil((Date.parse(due) - Date.parse(now)) / 1000) + 60 })
      await settle()
      const payment = await waitFor(() => renewalPayment(subscriptionId), "the renewal order's payment")
      expect(payment.data.invoiceLines).toEqual(invoiced)

      // A partial refund of the renewal: its allowance is the invoiced line's share, never one "Order" line.
      expect((await api.post(`/admin/payments/${payment.id}/refund`, { amount: 500 }, { headers: admin })).status).toBe(200)
      const refunded = await control(env.sandbox, "GET", `/transactions/${payment.data.transactionId as string}`)
      expect(refunded.refund.allowance).toEqual([{ ...invoiced[0], quantity: 1, unitPrice: 500 }])
    })
  },
})
