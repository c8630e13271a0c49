import { Modules } from "@medusajs/framework/utils"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchChromium } from "../../scripts/chromium"
import seedDemo from "../../scripts/demo/seed"
import { freePort } from "../../scripts/postgres"
import { startStorefront, type StorefrontHandle } from "../../storefront/server"
import {
  control,
  EMBEDDED_HOOK_PATH,
  orderOfCart,
  updateEmbeddedEndpoint,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { settle, watchStore } from "../helpers/settle"
import { cardFrame, cardFormReady, chooseCard, mountedIntentId, payWithCard } from "./card-form"
import { screenshots } from "./screenshots"
import { checkoutToPayment, confirmationPage, fillCart, pageReady } from "./shopper"
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

/**
 * The storefront's port is chosen before the app boots: the provider builds
 * its returnUrl from STOREFRONT_URL at start. The SDK's integrity hash is
 * given too (as the demo does), so the storefront loads it with SRI.
 */
const storefront: { port: number; url: string } = { port: 0, url: "" }
beforeAll(async () => {
  storefront.port = await freePort()
  storefront.url = `http://127.0.0.1:${storefront.port}`
  process.env.STOREFRONT_URL = storefront.url
  process.env.TW_EMBEDDED_SDK_INTEGRITY = env.sandbox.embedded.sdkIntegrity
})

storeTestRunner({
  inApp: true,
  env: {},
  testSuite: ({ api, getContainer }) => {
    let site: StorefrontHandle
    let browser: Browser
    let context: BrowserContext
    let page: Page
    const pageErrors: string[] = []

    beforeAll(async () => {
      // Seeded once: the runner snapshots the database after this and restores it before every test.
      await seedDemo({ container: getContainer(), args: [] })
      watchStore(getContainer(), env.sandbox)
      const [key] = await getContainer().resolve(Modules.API_KEY).listApiKeys({ type: "publishable" })
      // The endpoint registered before the app booted (useSandbox) now points at the app, so it gets signed webhooks.
      await updateEmbeddedEndpoint(env.sandbox, env.webhook.endpointId, { url: `${api.defaults.baseURL}${EMBEDDED_HOOK_PATH}`, status: "enabled" })
      // One shopper after another from 127.0.0.1, faster than a store's shoppers: the sandbox's limits on
      // browser (publishable-key) requests would answer 429 here; their own tests are in packages/sandbox.
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}/embedded`, {
        rateLimits: { publishablePerMinutePerIp: 600, publishablePerMinutePerKey: 600, firewallPer5MinPerIp: 3_000, firewallPer5MinPerKey: 3_000 },
      })
      site = await startStorefront({ port: storefront.port, host: "127.0.0.1", backendUrl: api.defaults.baseURL, publishableKey: key.token })
      expect(site.url).toBe(storefront.url)
      browser = await launchChromium()
    })

    afterAll(async () => {
      await browser?.close()
      await site?.close()
    })

    beforeEach(async () => {
      // A fresh context per scenario: a new shopper with an empty cart (localStorage).
      context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
      page = await context.newPage()
      pageErrors.length = 0
      page.on("pageerror", (error) => pageErrors.push(error.message))
    })

    afterEach(async () => {
      await context?.close()
      // Every webhook delivered and acted on, so none runs into the next test's restored database.
      await settle()
    })

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
      await expect(page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await expect(page.textContent('[data-testid="payment-state"]')).resolves.toBe("Paid")
      await expect(page.textContent("#payment-method")).resolves.toContain("Credit card")
      await expect(page.textContent("#cart-count")).resolves.toBe("0")
    }

    it("card: the shopper pays in the embedded card form, and the confirmation shows the order paid", async () => {
      const shot = await screenshots(page, "embedded-card-success")
      await fillCart(page, shot, site.url, "Oolong Tea, 150 g", 2)
      const cartId = (await cartIdOf(page))!
      await checkoutToPayment(page, shot)
      await expect(page.textContent('#summary-totals [data-testid="total-total"]')).resolves.toBe("NT$1,460")

      await chooseCard(page, shot)
      // The SDK came from the provider's sdkUrl, pinned by its integrity hash.
      const script = page.locator(`script[src="${env.sandbox.embedded.sdkUrl}"]`)
      await expect(script.getAttribute("integrity")).resolves.toBe(env.sandbox.embedded.sdkIntegrity)
      await expect(script.getAttribute("crossorigin")).resolves.toBe("anonymous")
      const intentId = await mountedIntentId(page)
      await payWithCard(page, shot, SUCCESS_CARD)

      const orderId = await confirmationPage(page)
      await shot("confirmation")
      await expectPaidConfirmation()
      await expect(page.textContent('#order-totals [data-testid="total-total"]')).resolves.toBe("NT$1,460")

      const payments = await capturedPayments(cartId)
      expect(payments).toHaveLength(1)
      expect(Number(payments[0]?.amount)).toBe(1460)
      expect(payments[0]?.data).toMatchObject({ paymentIntentId: intentId })
      expect(orderId).toMatch(/^order_/)
      expect(pageErrors).toEqual([])
    })

    it("declined card: the message is shown, a new card form replaces the failed intent, and the retry is paid once", async () => {
      const shot = await screenshots(page, "embedded-card-decline-then-retry")
      await fillCart(page, shot, site.url, "Pineapple Cakes, box of 10", 1)
      const cartId = (await cartIdOf(page))!
      await checkoutToPayment(page, shot)
      await chooseCard(page, shot)
      const first = await mountedIntentId(page)
      await payWithCard(page, shot, DECLINED_CARD)

      const error = page.locator("#payment-error")
      await error.waitFor()
      await expect(error.textContent()).resolves.toMatch(/declined.*\(CARD_DECLINED\)/)
      // A declined intent has failed for good: the form was mounted again on a new one.
      await cardFormReady(page)
      await shot("declined")
      const second = await mountedIntentId(page)
      expect(second).not.toBe(first)
      expect((await control(env.sandbox, "GET", `/payment-intents/${first}`)).status).toBe("failed")
      await expect(page.isEnabled("#pay")).resolves.toBe(false)

      await payWithCard(page, shot, SUCCESS_CARD)
      await confirmationPage(page)
      await shot("confirmation")
      await expectPaidConfirmation()

      const payments = await capturedPayments(cartId)
      await settle()
      expect(await capturedPayments(cartId)).toHaveLength(1)
      expect(payments[0]?.data).toMatchObject({ paymentIntentId: second, status: "succeeded" })
      expect(pageErrors).toEqual([])
    })

    it("3-D Secure: the issuer's challenge opens over the checkout, and passing it pays the order", async () => {
      const shot = await screenshots(page, "embedded-card-3ds")
      await fillCart(page, shot, site.url, "Bubble Tea Kit", 1)
      const cartId = (await cartIdOf(page))!
      await checkoutToPayment(page, shot)
      await chooseCard(page, shot)
      await payWithCard(page, shot, THREE_DS_CARD)

      await page.locator("#twpay-3ds-overlay").waitFor()
      const challenge = page.frameLocator("#twpay-3ds-frame")
      await challenge.locator("#threeds-pass").waitFor()
      await shot("challenge")
      await challenge.locator("#threeds-pass").click()

      await confirmationPage(page)
      await shot("confirmation")
      await expectPaidConfirmation()
      expect(await capturedPayments(cartId)).toHaveLength(1)
      expect(pageErrors).toEqual([])
    })

    it("3-D Secure cancelled: the message is shown and the same intent is confirmed again", async () => {
      const shot = await screenshots(page, "embedded-card-3ds-cancel")
      await fillCart(page, shot, site.url, "Oolong Tea, 150 g", 1)
      const cartId = (await cartIdOf(page))!
      await checkoutToPayment(page, shot)
      await chooseCard(page, shot)
      const intentId = await mountedIntentId(page)
      await payWithCard(page, shot, THREE_DS_CARD)
      await page.frameLocator("#twpay-3ds-frame").locator("#threeds-cancel").click()

      await page.locator("#payment-error").waitFor()
      await expect(page.textContent("#payment-error")).resolves.toContain("(3DS_CANCELED)")
      // The intent can still be paid: the form and its card details stay, and the button is usable at once.
      await page.waitForSelector("#pay:not([disabled])")
      await expect(mountedIntentId(page)).resolves.toBe(intentId)
      await expect(cardFrame(page).locator("#cardNumber").inputValue()).resolves.toBe("4000 0000 0000 3220")
      await shot("challenge-cancelled")

      await page.click("#pay")
      await page.frameLocator("#twpay-3ds-frame").locator("#threeds-pass").click()
      await confirmationPage(page)
      await shot("confirmation")
      await expectPaidConfirmation()
      const payments = await capturedPayments(cartId)
      expect(payments).toHaveLength(1)
      expect(payments[0]?.data).toMatchObject({ paymentIntentId: intentId })
      expect(pageErrors).toEqual([])
    })

    it("processing: the order is placed awaiting payment, and shows paid once the service settles it", async () => {
      const shot = await screenshots(page, "embedded-card-processing")
      await fillCart(page, shot, site.url, "Pineapple Cakes, box of 10", 1)
      const cartId = (await cartIdOf(page))!
      await checkoutToPayment(page, shot)
      await chooseCard(page, shot)
      const intentId = await mountedIntentId(page)
      await payWithCard(page, shot, PROCESSING_CARD)

      await confirmationPage(page)
      await shot("confirmation-awaiting")
      await expect(page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("awaiting")
      await expect(page.textContent('[data-testid="payment-state"]')).resolves.toBe("Awaiting payment")
      await expect(page.textContent("#payment-explanation")).resolves.toContain("still processing your card payment")

      // The service settles the payment and sends a signed webhook; Medusa captures about 5 s later.
      await control(env.sandbox, "POST", `/payment-intents/${intentId}/processing-resolve`, { outcome: "succeeded" })
      await capturedPayments(cartId)
      const reloaded = page.waitForEvent("load")
      await page.click("#reload-order")
      await reloaded
      await pageReady(page)
      await shot("confirmation-paid")
      await expectPaidConfirmation()
      expect(pageErrors).toEqual([])
    })

    it("the return page believes the payment service, not its address: an unpaid intent goes back to the payment step", async () => {
      const shot = await screenshots(page, "embedded-card-forged-return")
      await fillCart(page, shot, site.url, "Bubble Tea Kit", 1)
      const cartId = (await cartIdOf(page))!
      await checkoutToPayment(page, shot)
      await chooseCard(page, shot)
      const src = (await page.getAttribute('iframe[name="twpay-payment-frame"]', "src"))!
      const clientSecret = new URLSearchParams(new URL(src).hash.slice(1)).get("clientSecret")!

      // What the SDK would send after a payment, typed by hand for an intent nobody paid.
      const forged = new URLSearchParams({ payment_intent: await mountedIntentId(page), payment_intent_client_secret: clientSecret, redirect_status: "succeeded" })
      await page.goto(`${site.url}/checkout/card/return?${forged}`)
      await page.waitForURL(/\/checkout(\?|$)/)
      await pageReady(page)
      await page.locator("#payment-error").waitFor()
      await shot("back-to-payment")
      await expect(page.textContent("#payment-error")).resolves.toContain("has not confirmed a payment")
      await expect(page.isChecked("#payment-option-embedded-card")).resolves.toBe(true)
      expect(new URL(page.url()).search).toBe("")
      await cardFormReady(page)
      expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
      expect(pageErrors).toEqual([])
    })
  },
})
