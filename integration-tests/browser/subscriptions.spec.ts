import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import reconcileTwSubscriptions from "../../src/jobs/reconcile-tw-subscriptions"
import { adminToken, control, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
import { settle } from "../helpers/settle"
import { reserveStorefront, useStorefrontShopper } from "./storefront-session"
import { storeTestRunner } from "../helpers/store-runner"
import { screenshots } from "./screenshots"
import { addressAndDelivery, confirmationPage, pageReady, registerAccount, SHOPPER, submitCard } from "./shopper"

jest.setTimeout(300_000)
const env = useSandbox()

// As in the demo store (scripts/demo.ts): every period is invoiced on the shopper's choice.
const storefront = reserveStorefront(() => ({ TW_EINVOICE: "true" }))

const DAY = 24 * 3600
/** Days that always pass a month's due time (the same day next month, 09:00 Taipei), from any time of day. */
const MONTH = 32
/** The seeded plan's product (scripts/demo/seed.ts): NT$900 a month, plus NT$100 home delivery. */
const PLAN_PRODUCT = "tea-of-the-month"
const PERIOD_AMOUNT = 1000

interface SubscriptionView {
  id: string
  status: string
  amount: number
  periods_charged: number
  first_order_id: string | null
  service_subscription_id: string | null
  cancel_reason: string | null
  customer?: { email: string }
  periods: Array<{ period: number; status: string; order_id: string | null; transaction_hid: string | null }>
}

interface LinkedOrder {
  id: string
  metadata: Record<string, unknown> | null
  payment_collections: Array<{ payments: Array<{ amount: unknown; captured_at: unknown }> }>
}

/** The subscription's orders through its module link, as the admin's order page would find them. */
async function ordersOfSubscription(container: MedusaContainer, id: string): Promise<LinkedOrder[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "tw_subscription",
    fields: ["id", "orders.id", "orders.metadata", "orders.payment_collections.payments.amount", "orders.payment_collections.payments.captured_at"],
    filters: { id },
  })
  return ((data[0] as { orders?: Array<LinkedOrder | null> } | undefined)?.orders ?? []).filter((order): order is LinkedOrder => Boolean(order))
}

const isRenewal = (order: LinkedOrder) => Boolean(order.metadata?.tw_subscription_period)

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    const shopper = useStorefrontShopper(storefront, { api, getContainer }, env, { merchant: { einvoiceActive: true } })

    const advanceDays = async (days: number) => {
      await control(env.sandbox, "POST", "/clock/advance", { seconds: days * DAY })
      await settle()
    }

    it("monthly: a customer subscribes on the product page and pays on the recurring page; 3 months on, 3 captured renewal orders, seen and cancelled in the account; the admin sees it cancelled and no 4th order comes", async () => {
      const shot = await screenshots(shopper.page, "subscription-monthly")
      const admin = await adminToken(api, getContainer())
      const adminDetail = async (id: string): Promise<SubscriptionView> => (await api.get(`/admin/tw-subscriptions/${id}`, { headers: admin })).data.subscription

      // The product page offers the seeded plan; a guest is asked to log in first.
      await shopper.page.goto(`${shopper.site.url}/products/${PLAN_PRODUCT}`)
      await pageReady(shopper.page)
      await expect(shopper.page.isVisible('[data-testid="subscription-offer"]')).resolves.toBe(true)
      await expect(shopper.page.textContent('[data-testid="plan-title"]')).resolves.toBe("Monthly tea box")
      await expect(shopper.page.textContent('[data-testid="plan-terms"]')).resolves.toContain("NT$900 every month, 12 months")
      await shot("product-with-plan")
      await shopper.page.click("#subscribe")
      await shopper.page.locator("#subscribe-login").click()
      await registerAccount(shopper.page, shot, { email: SHOPPER.email, password: "tea-every-month-1", first_name: SHOPPER.first_name, last_name: SHOPPER.last_name })
      expect(shopper.page.url()).toBe(`${shopper.site.url}/products/${PLAN_PRODUCT}`)

      // Logged in: the variant alone in a subscription cart, straight to the checkout.
      await shopper.page.click("#subscribe")
      await shopper.page.waitForURL(/\/checkout$/)
      await pageReady(shopper.page)
      await expect(shopper.page.inputValue("#email")).resolves.toBe(SHOPPER.email)
      const cartId = await shopper.page.evaluate(() => localStorage.getItem("medusa_payment_tw_demo_cart_id"))

      // Anything else is refused with a clear message while the cart holds the subscription.
      await shopper.page.goto(`${shopper.site.url}/products/oolong-tea`)
      await pageReady(shopper.page)
      await shopper.page.click("#add-to-cart")
      await shopper.page.waitForFunction(() => /holds a subscription/.test(document.querySelector("#add-to-cart-status")?.textContent ?? ""))
      await expect(shopper.page.getAttribute("#add-to-cart-status", "class")).resolves.toContain("error")
      await shot("other-item-refused")
      await shopper.page.goto(`${shopper.site.url}/checkout`)
      await pageReady(shopper.page)

      await addressAndDelivery(shopper.page, shot)
      await shopper.page.locator("#payment-option-subscription").waitFor()
      await expect(shopper.page.locator('#payment-options input[name="payment_option"]').count()).resolves.toBe(1)
      await shopper.page.waitForFunction(() => /Monthly tea box/.test(document.querySelector("#subscription-terms")?.textContent ?? ""))
      await expect(shopper.page.textContent("#subscription-terms")).resolves.toContain("NT$1,000 every month, 12 months")
      await expect(shopper.page.isEnabled("#pay")).resolves.toBe(true)
      await shot("subscription-payment-step")
      await shopper.page.click("#pay")

      // The service's recurring page: the first month, by card.
      await shopper.page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/subscription/`))
      await shopper.page.waitForSelector("#payment-form")
      await expect(shopper.page.textContent("#title")).resolves.toBe("Recurring payment")
      await expect(shopper.page.textContent("#amount")).resolves.toContain(`TWD ${PERIOD_AMOUNT}`)
      await shot("recurring-page")
      await submitCard(shopper.page, shot, SUCCESS_CARD)

      const firstOrderId = await confirmationPage(shopper.page)
      await shot("first-order")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await expect(shopper.page.textContent('[data-testid="order-subscription"]')).resolves.toMatch(/starts your subscription/)
      await expect(shopper.page.textContent('#order-totals [data-testid="total-total"]')).resolves.toBe("NT$1,000")

      const { data: listed } = await api.get("/admin/tw-subscriptions", { headers: admin })
      expect(listed.subscriptions).toHaveLength(1)
      const subscriptionId: string = listed.subscriptions[0].id
      const active = await waitFor(async () => {
        const s = await adminDetail(subscriptionId)
        return s.status === "active" && s.first_order_id && s.service_subscription_id ? s : undefined
      }, "the active subscription")
      expect(active).toMatchObject({ first_order_id: firstOrderId, amount: PERIOD_AMOUNT, customer: { email: SHOPPER.email } })
      const { data: cartLink } = await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId! } })
      expect(cartLink[0]?.order_id).toBe(firstOrderId)

      // Three months on the service's clock: three paid periods, each a renewal order.
      for (let month = 1; month <= 3; month++) {
        await advanceDays(MONTH)
        await waitFor(async () => {
          const s = await adminDetail(subscriptionId)
          return s.periods_charged === month + 1 && s.periods.every((p) => p.order_id)
        }, `renewal ${month}`)
      }
      await settle()
      const renewals = (await ordersOfSubscription(getContainer(), subscriptionId)).filter(isRenewal)
      expect(renewals).toHaveLength(3)
      expect(renewals.map((order) => Number(order.metadata?.tw_subscription_period)).sort()).toEqual([2, 3, 4])
      for (const order of renewals) {
        expect(order.metadata?.tw_subscription_id).toBe(subscriptionId)
        const payments = order.payment_collections.flatMap((collection) => collection.payments)
        expect(payments).toHaveLength(1)
        expect(Number(payments[0].amount)).toBe(PERIOD_AMOUNT)
        expect(payments[0].captured_at).toBeTruthy()
      }
      const renewalIds = renewals.map((order) => order.id).sort()

      // The customer's account: the subscription, then its periods with their orders.
      await shopper.page.goto(`${shopper.site.url}/account`)
      await pageReady(shopper.page)
      const row = shopper.page.locator('[data-testid="subscription-row"]')
      await row.waitFor()
      await expect(row.count()).resolves.toBe(1)
      await expect(row.getAttribute("data-status")).resolves.toBe("active")
      await expect(row.locator('[data-testid="subscription-status"]').textContent()).resolves.toBe("Active")
      await expect(row.locator('[data-testid="subscription-amount"]').textContent()).resolves.toBe("NT$1,000 every month")
      await expect(row.locator('[data-testid="subscription-periods"]').textContent()).resolves.toBe("4 of 12")
      await expect(row.locator('[data-testid="subscription-next-charge"]').textContent()).resolves.toMatch(/Taipei time/)
      await expect(row.locator('[data-testid="subscription-link"]').textContent()).resolves.toBe("Tea of the Month Box")
      await shot("account-subscriptions")

      await row.locator('[data-testid="subscription-link"]').click()
      await shopper.page.waitForURL(new RegExp(`/account/subscriptions/${subscriptionId}$`))
      await pageReady(shopper.page)
      await expect(shopper.page.locator('[data-testid="period-row"]').count()).resolves.toBe(4)
      await expect(shopper.page.locator('[data-testid="period-row"][data-status="paid"]').count()).resolves.toBe(4)
      await expect(shopper.page.getAttribute('[data-testid="first-order-link"]', "data-order-id")).resolves.toBe(firstOrderId)
      const shownRenewals = await shopper.page.locator('[data-testid="renewal-order-link"]').evaluateAll((links) => links.map((link) => link.getAttribute("data-order-id")))
      expect([...shownRenewals].sort()).toEqual(renewalIds)
      for (const transaction of await shopper.page.locator('[data-testid="period-transaction"]').allTextContents()) {
        expect(transaction).toMatch(/^P/)
      }
      await shot("subscription-detail")

      // A renewal order's own page says what it is.
      await shopper.page.locator('[data-testid="renewal-order-link"]').first().click()
      await shopper.page.waitForURL(/\/orders\/order_/)
      await pageReady(shopper.page)
      await expect(shopper.page.textContent("#order-title")).resolves.toBe("Your renewal order")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await shot("renewal-order")
      await shopper.page.goBack()
      await pageReady(shopper.page)

      // A second tab, still showing the active subscription, tries to cancel after the first did: the refusal is shown.
      const stale = await shopper.page.context().newPage()
      stale.on("pageerror", (error) => shopper.pageErrors.push(error.message))
      await stale.goto(shopper.page.url())
      await pageReady(stale)

      await shopper.page.fill("#cancel-reason", "Moving abroad")
      await shot("cancel")
      await shopper.page.click("#cancel-subscription")
      await shopper.page.locator('[data-testid="cancel-done"]').waitFor()
      await expect(shopper.page.getAttribute('[data-testid="subscription-state"]', "data-state")).resolves.toBe("cancelled")
      await expect(shopper.page.isVisible("#cancel-section")).resolves.toBe(false)
      await expect(shopper.page.textContent('[data-testid="cancel-reason"]')).resolves.toBe("Moving abroad")
      await shot("cancelled")

      await stale.click("#cancel-subscription")
      await stale.locator('[data-testid="cancel-error"]').waitFor()
      await expect(stale.textContent('[data-testid="cancel-error"]')).resolves.toMatch(/already cancelled; nothing was changed/)
      await (await screenshots(stale, "subscription-refused-cancel"))("refused-cancel")
      await stale.close()

      // The admin sees it cancelled, at the service too; a month later nothing more is charged or ordered.
      const cancelled = await adminDetail(subscriptionId)
      expect(cancelled).toMatchObject({ status: "cancelled", cancel_reason: "Moving abroad", periods_charged: 4 })
      const { subscriptions: atService } = await control(env.sandbox, "GET", "/subscriptions")
      expect(atService.find((s: { id: string }) => s.id === cancelled.service_subscription_id)?.status).toBe("cancelled")

      await advanceDays(MONTH)
      await reconcileTwSubscriptions(getContainer(), { force: true })
      await settle()
      expect((await ordersOfSubscription(getContainer(), subscriptionId)).filter(isRenewal)).toHaveLength(3)
      expect(await adminDetail(subscriptionId)).toMatchObject({ status: "cancelled", periods_charged: 4 })
      expect(shopper.pageErrors).toEqual([])
    })
  },
})
