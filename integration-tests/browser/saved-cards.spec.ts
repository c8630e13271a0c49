import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { adminToken, control, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
import { settle } from "../helpers/settle"
import { reserveStorefront, useStorefrontShopper } from "./storefront-session"
import { storeTestRunner } from "../helpers/store-runner"
import { screenshots, type Shot } from "./screenshots"
import { addressAndDelivery, checkoutToPayment, confirmationPage, fillCart, pageReady, payOnHostedPage, registerAccount, SHOPPER, submitCard } from "./shopper"

jest.setTimeout(300_000)
const env = useSandbox()

// As in the demo store (scripts/demo.ts): payments are invoiced.
const storefront = reserveStorefront(() => ({ TW_EINVOICE: "true" }))

/** Binds; every later charge of its token fails (T0001). */
const FAILING_CHARGES_CARD = "4000000000010019"
const DAY = 24 * 3600
/** Days that always pass a month's due time (the same day next month, 09:00 Taipei). */
const MONTH = 32
const PLAN_PRODUCT = "tea-of-the-month"

/** The order a cart became, with its payments. */
async function orderOfCart(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  if (!links[0]) {
    return undefined
  }
  const { data } = await query.graph({ entity: "order", fields: ["id", "payment_collections.payments.captured_at", "payment_collections.payments.data"], filters: { id: links[0].order_id } })
  return data[0] as { id: string; payment_collections: Array<{ payments: Array<{ captured_at: unknown; data: Record<string, unknown> }> }> }
}

/**
 * Saved cards in the demo storefront: a customer saves a card in the account
 * page (the service's binding page), then pays with it at checkout without
 * leaving the store, or subscribes with it; a card whose charges fail is
 * declined with a clear message and the cart stays payable.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    const shopper = useStorefrontShopper(storefront, { api, getContainer }, env, { merchant: { einvoiceActive: true } })

    let accounts = 0
    async function newCustomer(shot: Shot) {
      await shopper.page.goto(`${shopper.site.url}/account`)
      await registerAccount(shopper.page, shot, { email: `card${++accounts}-${SHOPPER.email}`, password: "saved-card-pass-1", first_name: SHOPPER.first_name, last_name: SHOPPER.last_name })
    }

    /** "Add a card" in the account page, the service's binding page, back to the account: the card listed, ready to pay. */
    async function saveCard(shot: Shot, number: string, last4: string) {
      await shopper.page.goto(`${shopper.site.url}/account`)
      await pageReady(shopper.page)
      await shopper.page.locator('[data-testid="no-saved-cards"]').waitFor()
      await shot("account-no-cards")
      await shopper.page.click("#add-card")
      await shopper.page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/subscription/create/`))
      await shopper.page.waitForSelector("#payment-form")
      await expect(shopper.page.textContent("#title")).resolves.toBe("Save your card")
      await shot("binding-page")
      await submitCard(shopper.page, shot, number)
      await shopper.page.waitForURL(`${shopper.site.url}/account`)
      await pageReady(shopper.page)
      const row = shopper.page.locator('[data-testid="saved-card-row"][data-status="active"]')
      await row.waitFor()
      await expect(row.locator('[data-testid="saved-card-name"]').textContent()).resolves.toBe(`•••• ${last4}`)
      await expect(row.locator('[data-testid="saved-card-status"]').textContent()).resolves.toBe("Ready to pay")
      await shot("account-card-saved")
    }

    /** A cart of one `product`, taken to the checkout's payment step; returns the cart's id. */
    async function cartAtPayment(shot: Shot, product: string): Promise<string> {
      await fillCart(shopper.page, shot, shopper.site.url, product, 1)
      const cartId = await shopper.page.evaluate(() => localStorage.getItem("medusa_payment_tw_demo_cart_id"))
      await checkoutToPayment(shopper.page, shot)
      return cartId!
    }

    /** Every page address the tab shows from now on (the shopper must never be sent to the service). */
    function addresses(): string[] {
      const seen: string[] = []
      shopper.page.on("framenavigated", (frame) => {
        if (frame === shopper.page.mainFrame()) {
          seen.push(frame.url())
        }
      })
      return seen
    }

    it("saves a card in the account page, then pays with it at checkout without leaving the store: one captured order", async () => {
      const shot = await screenshots(shopper.page, "saved-card-payment")
      await newCustomer(shot)
      await saveCard(shot, SUCCESS_CARD, "4242")

      const cartId = await cartAtPayment(shot, "Oolong Tea")
      // A customer with a card: the saved card comes first and is chosen.
      await expect(shopper.page.isChecked("#payment-option-saved-card")).resolves.toBe(true)
      await shopper.page.locator('[data-testid="saved-card-choice"]').waitFor()
      await expect(shopper.page.locator('[data-testid="saved-card-choice"]').allTextContents()).resolves.toEqual(["•••• 4242"])
      await shot("saved-card-choice")
      const seen = addresses()
      await shopper.page.click("#pay")

      const orderId = await confirmationPage(shopper.page)
      await shot("order")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      expect(seen.filter((url) => !url.startsWith(shopper.site.url))).toEqual([])
      const order = await orderOfCart(getContainer(), cartId)
      expect(order?.id).toBe(orderId)
      const payments = order!.payment_collections.flatMap((c) => c.payments)
      expect(payments).toHaveLength(1)
      expect(payments[0].captured_at).toBeTruthy()
      expect(payments[0].data).toMatchObject({ savedCard: { last4: "4242" }, status: "charged" })
      expect(shopper.pageErrors).toEqual([])
    })

    it("a card that binds but whose charges fail: a clear decline at checkout, no order, and the cart is paid another way", async () => {
      const shot = await screenshots(shopper.page, "saved-card-declined")
      await newCustomer(shot)
      await saveCard(shot, FAILING_CHARGES_CARD, "0019")

      const cartId = await cartAtPayment(shot, "Pineapple Cakes")
      await shopper.page.locator('[data-testid="saved-card-choice"]').waitFor()
      await shopper.page.click("#pay")
      await shopper.page.locator("#payment-error:not([hidden])").waitFor()
      await expect(shopper.page.textContent("#payment-error")).resolves.toMatch(/^Your card •••• 0019 was declined \(T0001: .*\)\. Nothing was charged: pay with another card or another payment method\.$/)
      await shot("declined")
      expect(new URL(shopper.page.url()).pathname).toBe("/checkout")
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
      await expect(shopper.page.isEnabled("#pay")).resolves.toBe(true)

      // The same cart, on the hosted page by card.
      await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "card")
      await submitCard(shopper.page, shot, SUCCESS_CARD)
      await confirmationPage(shopper.page)
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await shot("paid-another-way")
      const order = await orderOfCart(getContainer(), cartId)
      expect(order!.payment_collections.flatMap((c) => c.payments)).toHaveLength(1)
      expect(shopper.pageErrors).toEqual([])
    })

    it("subscribes with a saved card: the first period's order at once, a renewal order after the service's clock moves a month", async () => {
      const shot = await screenshots(shopper.page, "saved-card-subscription")
      const admin = await adminToken(api, getContainer())
      await newCustomer(shot)
      await saveCard(shot, SUCCESS_CARD, "4242")

      await shopper.page.goto(`${shopper.site.url}/products/${PLAN_PRODUCT}`)
      await pageReady(shopper.page)
      await shopper.page.click("#subscribe")
      await shopper.page.waitForURL(/\/checkout$/)
      await pageReady(shopper.page)
      await addressAndDelivery(shopper.page, shot)
      await shopper.page.locator("#payment-option-saved-card-subscription").waitFor()
      await shopper.page.check("#payment-option-saved-card-subscription")
      await shopper.page.locator('[data-testid="saved-card-choice"]').waitFor()
      await shot("subscription-saved-card")
      const seen = addresses()
      await shopper.page.click("#pay")

      const firstOrderId = await confirmationPage(shopper.page)
      await shot("first-order")
      expect(seen.filter((url) => !url.startsWith(shopper.site.url))).toEqual([])
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await expect(shopper.page.textContent('[data-testid="order-subscription"]')).resolves.toMatch(/starts your subscription/)

      const { data: listed } = await api.get("/admin/tw-subscriptions", { headers: admin })
      const subscriptionId: string = listed.subscriptions[0].id
      const detail = async () => (await api.get(`/admin/tw-subscriptions/${subscriptionId}`, { headers: admin })).data.subscription
      await waitFor(async () => (await detail()).first_order_id === firstOrderId, "the subscription's first order")
      expect(await detail()).toMatchObject({ status: "active", periods_charged: 1, card_last4: "4242" })

      await control(env.sandbox, "POST", "/clock/advance", { seconds: MONTH * DAY })
      await settle()
      await waitFor(async () => {
        const s = await detail()
        return s.periods_charged === 2 && s.periods.every((p: { order_id: string | null }) => p.order_id)
      }, "the renewal order")

      // The customer's subscription page shows both periods with their orders.
      await shopper.page.goto(`${shopper.site.url}/account/subscriptions/${subscriptionId}`)
      await pageReady(shopper.page)
      await expect(shopper.page.locator('[data-testid="period-row"][data-status="paid"]').count()).resolves.toBe(2)
      await expect(shopper.page.locator('[data-testid="renewal-order-link"]').count()).resolves.toBe(1)
      await shot("renewal")
      expect(shopper.pageErrors).toEqual([])
    })
  },
})
