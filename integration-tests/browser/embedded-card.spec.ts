import type { Page } from "playwright-core"
import {
  control,
  EMBEDDED_HOOK_PATH,
  orderOfCart,
  updateEmbeddedEndpoint,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { settle } from "../helpers/settle"
import { cardFrame, cardFormReady, chooseCard, mountedIntentId, payWithCard } from "./card-form"
import { screenshots } from "./screenshots"
import { checkoutToPayment, confirmationPage, fillCart, pageReady } from "./shopper"
import { reserveStorefront, useStorefrontShopper } from "./storefront-session"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)
const env = useSandbox()

const SUCCESS_CARD = "4242424242424242"
const DECLINED_CARD = "4000000000000002"
const THREE_DS_CARD = "4000000000003220"
/** `processing` at the service, settled later (here through the control API). */
const PROCESSING_CARD = "4000000000007700"
const CART_ID_KEY = "medusa_payment_tw_demo_cart_id"

interface OrderPayment {
  amount: unknown
  captured_at: unknown
  data: Record<string, unknown> | null
}

// The SDK's integrity hash is given (as the demo does), so the storefront loads it with SRI.
const storefront = reserveStorefront(() => ({ TW_EMBEDDED_SDK_INTEGRITY: env.sandbox.embedded.sdkIntegrity }))

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    beforeAll(async () => {
      // The endpoint registered before the app booted (useSandbox) now points at the app, so it gets signed webhooks.
      await updateEmbeddedEndpoint(env.sandbox, env.webhook.endpointId, { url: `${api.defaults.baseURL}${EMBEDDED_HOOK_PATH}`, status: "enabled" })
      // One shopper after another from 127.0.0.1, faster than a store's shoppers: the sandbox's limits on
      // browser (publishable-key) requests would answer 429 here; their own tests are in packages/sandbox.
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}/embedded`, {
        rateLimits: { publishablePerMinutePerIp: 600, publishablePerMinutePerKey: 600, firewallPer5MinPerIp: 3_000, firewallPer5MinPerKey: 3_000 },
      })
    })
    const shopper = useStorefrontShopper(storefront, { api, getContainer }, env)

    const cartIdOf = (p: Page) => p.evaluate((key) => localStorage.getItem(key), CART_ID_KEY)

    /** The order's payments as the backend has them (not as the page says), once one is captured. */
    async function capturedPayments(cartId: string): Promise<OrderPayment[]> {
      return waitFor(async () => {
        const order = await orderOfCart(getContainer(), cartId)
        const collections = (order?.payment_collections ?? []) as Array<{ payments?: OrderPayment[] } | null>
        const payments = collections.flatMap((collection) => collection?.payments ?? [])
        return payments.some((payment) => payment.captured_at) ? payments : undefined
      }, "the order's payment to be captured")
    }

    async function expectPaidConfirmation() {
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await expect(shopper.page.textContent('[data-testid="payment-state"]')).resolves.toBe("Paid")
      await expect(shopper.page.textContent("#payment-method")).resolves.toContain("Credit card")
      await expect(shopper.page.textContent("#cart-count")).resolves.toBe("0")
    }

    it("card: the shopper pays in the embedded card form, and the confirmation shows the order paid", async () => {
      const shot = await screenshots(shopper.page, "embedded-card-success")
      await fillCart(shopper.page, shot, shopper.site.url, "Oolong Tea, 150 g", 2)
      const cartId = (await cartIdOf(shopper.page))!
      await checkoutToPayment(shopper.page, shot)
      await expect(shopper.page.textContent('#summary-totals [data-testid="total-total"]')).resolves.toBe("NT$1,460")

      await chooseCard(shopper.page, shot)
      // The SDK came from the provider's sdkUrl, pinned by its integrity hash.
      const script = shopper.page.locator(`script[src="${env.sandbox.embedded.sdkUrl}"]`)
      await expect(script.getAttribute("integrity")).resolves.toBe(env.sandbox.embedded.sdkIntegrity)
      await expect(script.getAttribute("crossorigin")).resolves.toBe("anonymous")
      const intentId = await mountedIntentId(shopper.page)
      await payWithCard(shopper.page, shot, SUCCESS_CARD)

      const orderId = await confirmationPage(shopper.page)
      await shot("confirmation")
      await expectPaidConfirmation()
      await expect(shopper.page.textContent('#order-totals [data-testid="total-total"]')).resolves.toBe("NT$1,460")

      const payments = await capturedPayments(cartId)
      expect(payments).toHaveLength(1)
      expect(Number(payments[0]?.amount)).toBe(1460)
      expect(payments[0]?.data).toMatchObject({ paymentIntentId: intentId })
      expect(orderId).toMatch(/^order_/)
      expect(shopper.pageErrors).toEqual([])
    })

    it("declined card: the message is shown, a new card form replaces the failed intent, and the retry is paid once", async () => {
      const shot = await screenshots(shopper.page, "embedded-card-decline-then-retry")
      await fillCart(shopper.page, shot, shopper.site.url, "Pineapple Cakes, box of 10", 1)
      const cartId = (await cartIdOf(shopper.page))!
      await checkoutToPayment(shopper.page, shot)
      await chooseCard(shopper.page, shot)
      const first = await mountedIntentId(shopper.page)
      await payWithCard(shopper.page, shot, DECLINED_CARD)

      const error = shopper.page.locator("#payment-error")
      await error.waitFor()
      await expect(error.textContent()).resolves.toMatch(/declined.*\(CARD_DECLINED\)/)
      // A declined intent has failed for good: the form was mounted again on a new one.
      await cardFormReady(shopper.page)
      await shot("declined")
      const second = await mountedIntentId(shopper.page)
      expect(second).not.toBe(first)
      expect((await control(env.sandbox, "GET", `/payment-intents/${first}`)).status).toBe("failed")
      await expect(shopper.page.isEnabled("#pay")).resolves.toBe(false)

      await payWithCard(shopper.page, shot, SUCCESS_CARD)
      await confirmationPage(shopper.page)
      await shot("confirmation")
      await expectPaidConfirmation()

      const payments = await capturedPayments(cartId)
      await settle()
      expect(await capturedPayments(cartId)).toHaveLength(1)
      expect(payments[0]?.data).toMatchObject({ paymentIntentId: second, status: "succeeded" })
      expect(shopper.pageErrors).toEqual([])
    })

    it("3-D Secure: the issuer's challenge opens over the checkout, and passing it pays the order", async () => {
      const shot = await screenshots(shopper.page, "embedded-card-3ds")
      await fillCart(shopper.page, shot, shopper.site.url, "Bubble Tea Kit", 1)
      const cartId = (await cartIdOf(shopper.page))!
      await checkoutToPayment(shopper.page, shot)
      await chooseCard(shopper.page, shot)
      await payWithCard(shopper.page, shot, THREE_DS_CARD)

      await shopper.page.locator("#twpay-3ds-overlay").waitFor()
      const challenge = shopper.page.frameLocator("#twpay-3ds-frame")
      await challenge.locator("#threeds-pass").waitFor()
      await shot("challenge")
      await challenge.locator("#threeds-pass").click()

      await confirmationPage(shopper.page)
      await shot("confirmation")
      await expectPaidConfirmation()
      expect(await capturedPayments(cartId)).toHaveLength(1)
      expect(shopper.pageErrors).toEqual([])
    })

    it("3-D Secure cancelled: the message is shown and the same intent is confirmed again", async () => {
      const shot = await screenshots(shopper.page, "embedded-card-3ds-cancel")
      await fillCart(shopper.page, shot, shopper.site.url, "Oolong Tea, 150 g", 1)
      const cartId = (await cartIdOf(shopper.page))!
      await checkoutToPayment(shopper.page, shot)
      await chooseCard(shopper.page, shot)
      const intentId = await mountedIntentId(shopper.page)
      await payWithCard(shopper.page, shot, THREE_DS_CARD)
      await shopper.page.frameLocator("#twpay-3ds-frame").locator("#threeds-cancel").click()

      await shopper.page.locator("#payment-error").waitFor()
      await expect(shopper.page.textContent("#payment-error")).resolves.toContain("(3DS_CANCELED)")
      // The intent can still be paid: the form and its card details stay, and the button is usable at once.
      await shopper.page.waitForSelector("#pay:not([disabled])")
      await expect(mountedIntentId(shopper.page)).resolves.toBe(intentId)
      await expect(cardFrame(shopper.page).locator("#cardNumber").inputValue()).resolves.toBe("4000 0000 0000 3220")
      await shot("challenge-cancelled")

      await shopper.page.click("#pay")
      await shopper.page.frameLocator("#twpay-3ds-frame").locator("#threeds-pass").click()
      await confirmationPage(shopper.page)
      await shot("confirmation")
      await expectPaidConfirmation()
      const payments = await capturedPayments(cartId)
      expect(payments).toHaveLength(1)
      expect(payments[0]?.data).toMatchObject({ paymentIntentId: intentId })
      expect(shopper.pageErrors).toEqual([])
    })

    it("processing: the order is placed awaiting payment, and shows paid once the service settles it", async () => {
      const shot = await screenshots(shopper.page, "embedded-card-processing")
      await fillCart(shopper.page, shot, shopper.site.url, "Pineapple Cakes, box of 10", 1)
      const cartId = (await cartIdOf(shopper.page))!
      await checkoutToPayment(shopper.page, shot)
      await chooseCard(shopper.page, shot)
      const intentId = await mountedIntentId(shopper.page)
      await payWithCard(shopper.page, shot, PROCESSING_CARD)

      await confirmationPage(shopper.page)
      await shot("confirmation-awaiting")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("awaiting")
      await expect(shopper.page.textContent('[data-testid="payment-state"]')).resolves.toBe("Awaiting payment")
      await expect(shopper.page.textContent("#payment-explanation")).resolves.toContain("still processing your card payment")

      // The service settles the payment and sends a signed webhook; Medusa captures about 5 s later.
      await control(env.sandbox, "POST", `/payment-intents/${intentId}/processing-resolve`, { outcome: "succeeded" })
      await capturedPayments(cartId)
      const reloaded = shopper.page.waitForEvent("load")
      await shopper.page.click("#reload-order")
      await reloaded
      await pageReady(shopper.page)
      await shot("confirmation-paid")
      await expectPaidConfirmation()
      expect(shopper.pageErrors).toEqual([])
    })

    it("the return page believes the payment service, not its address: an unpaid intent goes back to the payment step", async () => {
      const shot = await screenshots(shopper.page, "embedded-card-forged-return")
      await fillCart(shopper.page, shot, shopper.site.url, "Bubble Tea Kit", 1)
      const cartId = (await cartIdOf(shopper.page))!
      await checkoutToPayment(shopper.page, shot)
      await chooseCard(shopper.page, shot)
      const src = (await shopper.page.getAttribute('iframe[name="twpay-payment-frame"]', "src"))!
      const clientSecret = new URLSearchParams(new URL(src).hash.slice(1)).get("clientSecret")!

      // What the SDK would send after a payment, typed by hand for an intent nobody paid.
      const forged = new URLSearchParams({ payment_intent: await mountedIntentId(shopper.page), payment_intent_client_secret: clientSecret, redirect_status: "succeeded" })
      await shopper.page.goto(`${shopper.site.url}/checkout/card/return?${forged}`)
      await shopper.page.waitForURL(/\/checkout(\?|$)/)
      await pageReady(shopper.page)
      await shopper.page.locator("#payment-error").waitFor()
      await shot("back-to-payment")
      await expect(shopper.page.textContent("#payment-error")).resolves.toContain("has not confirmed a payment")
      await expect(shopper.page.isChecked("#payment-option-embedded-card")).resolves.toBe(true)
      expect(new URL(shopper.page.url()).search).toBe("")
      await cardFormReady(shopper.page)
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
      expect(shopper.pageErrors).toEqual([])
    })
  },
})
