import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { launchChromium } from "../../scripts/chromium"
import seedDemo from "../../scripts/demo/seed"
import { control, EMBEDDED_HOOK_PATH, HOOK_PATH, SUCCESS_CARD, updateEmbeddedEndpoint, useSandbox, waitFor } from "../helpers/hosted-store"
import { settle, watchStore } from "../helpers/settle"
import { storeTestRunner } from "../helpers/store-runner"
import { cardFrame } from "./card-form"
import { type KitPageHandle, startKitPage } from "./kit-page"
import { screenshots } from "./screenshots"
import { logInNewCustomer, pageReady as ready, submitCard } from "./shopper"
import { reserveStorefront } from "./storefront-session"

jest.setTimeout(300_000)
const env = useSandbox()
// The demo store issues e-invoices (scripts/demo.ts): so does this one, and the sandbox's merchant below;
// the card SDK's integrity hash is given, so the card element loads it with SRI.
const storefront = reserveStorefront(() => ({ TW_EINVOICE: "true", TW_EMBEDDED_SDK_INTEGRITY: env.sandbox.embedded.sdkIntegrity }))

type MessageFor = (code: string, locale: "en" | "zh-TW", params?: Record<string, string>) => string
let messageFor: MessageFor

const LOCALES = ["en", "zh-TW"] as const

/** The order a cart became, as the store has it. */
async function orderOfCart(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  if (!links[0]) {
    return undefined
  }
  const { data } = await query.graph({ entity: "order", fields: ["id", "display_id", "payment_collections.payments.captured_at", "payment_collections.payments.data", "payment_collections.payments.payment_session_id"], filters: { id: links[0].order_id } })
  return data[0] as { id: string; display_id: number; payment_collections: Array<{ payments: Array<{ captured_at: unknown; data: Record<string, unknown>; payment_session_id: string }> }> }
}



/**
 * The kit's React components (medusa-payment-tw-storefront/react) rendered in
 * Chromium against the demo store and the sandbox, in English and Traditional
 * Chinese: the e-invoice choice refuses a bad tax id in the shopper's language
 * and takes a good one, the hosted pay button leads to the service's page and
 * the return page shows the order the store placed; the account's saved cards
 * bind one through the service's page, list it and delete it; the saved-card
 * picker pays with one without leaving the page; the plan picker and subscribe
 * button start a subscription on the service's recurring page, and the
 * account's subscriptions list it and cancel it; the product page's offer, the
 * whole payment step, and the order's payment block.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let site: KitPageHandle
    let browser: Browser
    let publishableKey: string
    let context: BrowserContext | undefined
    let page: Page
    const pageErrors: string[] = []

    beforeAll(async () => {
      ;({ messageFor } = (await import("../../packages/storefront/src/messages/index.js")) as { messageFor: MessageFor })
      const container = getContainer()
      const backendUrl = api.defaults.baseURL!
      await seedDemo({ container, args: [] })
      watchStore(container, env.sandbox)
      const [key] = await container.resolve(Modules.API_KEY).listApiKeys({ type: "publishable" })
      publishableKey = key.token
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${backendUrl}${HOOK_PATH}`, einvoiceActive: true })
      // The card service's webhooks to this app; its limits on browser requests raised, as in embedded-card.spec.ts.
      await updateEmbeddedEndpoint(env.sandbox, env.webhook.endpointId, { url: `${backendUrl}${EMBEDDED_HOOK_PATH}`, status: "enabled" })
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}/embedded`, {
        rateLimits: { publishablePerMinutePerIp: 600, publishablePerMinutePerKey: 600, firewallPer5MinPerIp: 3_000, firewallPer5MinPerKey: 3_000 },
      })
      site = await startKitPage({ port: storefront.port, backendUrl, publishableKey })
      expect(site.url).toBe(storefront.url)
      browser = await launchChromium()
    })

    afterAll(async () => {
      await browser?.close()
      await site?.close()
    })

    beforeEach(async () => {
      context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
      page = await context.newPage()
      pageErrors.length = 0
      page.on("pageerror", (error) => pageErrors.push(error.message))
      // The test page logs what failed while it set up its cart (see kit-components-page.tsx).
      page.on("console", (message) => message.type() === "error" && console.log(`page console: ${message.text()}`))
    })

    afterEach(async () => {
      await context?.close()
      await settle()
    })

    const transactionCount = async () => (await control(env.sandbox, "GET", "/transactions")).transactions.length

    it.each(LOCALES)("%s: the e-invoice choice refuses a bad tax id in the shopper's language, the hosted pay button pays a good one, the return page shows the placed order", async (locale) => {
      const t = (code: string, params?: Record<string, string>) => messageFor(code, locale, params)
      const shot = await screenshots(page, `kit-checkout-${locale}`)
      await page.goto(`${site.url}/kit/${locale}/checkout`)
      await ready(page)
      const cartId = await page.evaluate(() => localStorage.getItem("kit_test_cart_id"))
      expect(cartId).toMatch(/^cart_/)

      // The payment options of the region, labelled in the language: the hosted page's methods and the card form.
      const options = page.locator('[data-testid="payment-options"]')
      await options.getByLabel(t("option_hosted_card"), { exact: true }).waitFor()
      await expect(options.locator("legend").textContent()).resolves.toBe(t("payment_options_legend"))
      await expect(options.getByLabel(t("option_hosted_cvs"), { exact: true }).count()).resolves.toBe(1)
      await expect(options.getByLabel(t("option_embedded_card"), { exact: true }).count()).resolves.toBe(1)
      await options.getByLabel(t("option_hosted_card"), { exact: true }).check()

      // A wrong check digit: refused in the page, on the tax id's input, in the language; nothing created at the service.
      const before = await transactionCount()
      await page.getByLabel(t("invoice_kind_company"), { exact: true }).check()
      const taxId = page.getByLabel(t("invoice_tax_id_label"), { exact: true })
      await taxId.fill("22099132")
      await page.getByRole("button", { name: t("pay_hosted") }).click()
      const error = page.locator('[data-testid="invoice-error-taxId"]')
      await error.waitFor()
      await expect(error.textContent()).resolves.toBe(t("invoice_tax_id_invalid"))
      await expect(error.getAttribute("role")).resolves.toBe("alert")
      await expect(taxId.getAttribute("aria-invalid")).resolves.toBe("true")
      await expect(taxId.getAttribute("aria-describedby")).resolves.toBe(await error.getAttribute("id"))
      // Focus went to the field to fix.
      await expect(taxId.evaluate((input) => input === document.activeElement)).resolves.toBe(true)
      await shot("tax-id-refused")
      expect(await transactionCount()).toBe(before)
      expect(page.url()).toBe(`${site.url}/kit/${locale}/checkout`)

      // Corrected: the error goes, and the pay button leads to the service's page with that invoice.
      await taxId.fill("10458574")
      await page.getByLabel(t("invoice_company_name_label"), { exact: true }).fill("Taipei Tea Co.")
      await expect(error.count()).resolves.toBe(0)
      await expect(taxId.getAttribute("aria-invalid")).resolves.toBeNull()
      await page.getByRole("button", { name: t("pay_hosted") }).click()
      await page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/`))
      await page.waitForSelector("#payment-form")
      const transactionId = new URL(page.url()).pathname.split("/").pop()!
      const tx = await control(env.sandbox, "GET", `/transactions/${transactionId}`)
      expect(tx.invoiceInfo).toEqual({ invoiceType: "company", buyerIdentifier: "10458574", buyerName: "Taipei Tea Co." })
      await submitCard(page, shot, SUCCESS_CARD)

      // Back on the kit's return page (the return path the button gave): a fresh read completes the cart.
      await page.waitForURL(`${site.url}/kit/${locale}/return`, { timeout: 30_000 })
      await page.locator('[data-testid="payment-return"][data-state="order"]').waitFor({ timeout: 30_000 })
      const order = await orderOfCart(getContainer(), cartId!)
      expect(order).toBeDefined()
      expect(order!.payment_collections.flatMap((c) => c.payments)[0]).toMatchObject({ data: expect.objectContaining({ transactionId }) })
      await expect(page.textContent('[data-testid="payment-return-message"]')).resolves.toBe(t("return_order_placed", { display_id: String(order!.display_id) }))
      await expect(page.evaluate(() => localStorage.getItem("kit_test_cart_id"))).resolves.toBeNull()
      await shot("order-placed")
      expect(pageErrors).toEqual([])
    })

    it.each(LOCALES)("%s: the embedded card element loads the pinned SDK, pays once the card is complete, and the return page shows the placed order", async (locale) => {
      const t = (code: string, params?: Record<string, string>) => messageFor(code, locale, params)
      const shot = await screenshots(page, `kit-card-${locale}`)
      await page.goto(`${site.url}/kit/${locale}/card`)
      await ready(page)
      const cartId = await page.evaluate(() => localStorage.getItem("kit_test_cart_id"))

      // The SDK came from the provider's sdkUrl, pinned by its integrity hash (the kit's loadTwPay).
      const script = page.locator(`script[src="${env.sandbox.embedded.sdkUrl}"]`)
      await script.waitFor({ state: "attached" })
      await expect(script.getAttribute("integrity")).resolves.toBe(env.sandbox.embedded.sdkIntegrity)
      await expect(script.getAttribute("crossorigin")).resolves.toBe("anonymous")
      const frame = cardFrame(page)
      await frame.locator("#cardNumber").waitFor()
      const pay = page.getByRole("button", { name: t("pay_now") })
      await expect(pay.isDisabled()).resolves.toBe(true)
      await expect(page.locator('[data-testid="embedded-card"] [role="group"]').getAttribute("aria-labelledby")).resolves.toBeTruthy()
      await expect(page.getByText(t("card_form_label"), { exact: true }).count()).resolves.toBe(1)

      await frame.locator("#cardNumber").fill(SUCCESS_CARD)
      await frame.locator("#cardExpiry").fill("12/34")
      await frame.locator("#cardCvc").fill("123")
      await page.waitForSelector('[data-testid="embedded-card-pay"]:not([disabled])')
      await shot("card-entered")
      await pay.click()

      await page.waitForURL((url) => url.href.startsWith(`${site.url}/kit/${locale}/return?`) && url.searchParams.has("payment_intent"), { timeout: 30_000 })
      await page.locator('[data-testid="payment-return"][data-state="order"]').waitFor({ timeout: 30_000 })
      const order = await orderOfCart(getContainer(), cartId!)
      expect(order).toBeDefined()
      await expect(page.textContent('[data-testid="payment-return-message"]')).resolves.toBe(t("return_order_placed", { display_id: String(order!.display_id) }))
      await shot("order-placed")
      expect(pageErrors).toEqual([])
    })

    it.each(LOCALES)("%s: the account's saved cards: the empty state, a card added through the service's binding page, listed, then deleted", async (locale) => {
      const t = (code: string, params?: Record<string, string>) => messageFor(code, locale, params)
      const shot = await screenshots(page, `kit-account-${locale}`)
      await page.goto(`${site.url}/kit/${locale}/account`)
      await ready(page)
      await logInNewCustomer(page, publishableKey, { email: `kit-${locale.toLowerCase()}@example.test`, password: "kit-components-1", first_name: "Mei", last_name: "Lin" })
      await page.reload()
      await ready(page)

      const section = page.locator('[data-testid="saved-cards-section"]')
      await section.locator('[data-testid="saved-cards-empty"]').waitFor()
      await expect(section.locator("h2").textContent()).resolves.toBe(t("saved_cards_title"))
      await expect(section.locator('[data-testid="saved-cards-empty"]').textContent()).resolves.toBe(t("saved_cards_empty"))
      await page.locator('[data-testid="subscriptions-empty"]').waitFor()
      await expect(page.locator('[data-testid="subscriptions-empty"]').textContent()).resolves.toBe(t("subscriptions_empty"))
      await shot("empty")

      await section.getByRole("button", { name: t("saved_card_add") }).click()
      await page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/subscription/create/`))
      await page.waitForSelector("#payment-form")
      await submitCard(page, shot, SUCCESS_CARD)
      await page.waitForURL(`${site.url}/kit/${locale}/account`, { timeout: 30_000 })
      await ready(page)

      // Listed once the service's notification made it ready (the section reads the list again meanwhile).
      const row = section.locator('[data-testid="saved-card"][data-status="active"]')
      await row.waitFor({ timeout: 30_000 })
      const name = t("saved_card_name", { last4: "4242" })
      await expect(row.locator('[data-testid="saved-card-name"]').textContent()).resolves.toBe(name)
      await expect(row.locator('[data-testid="saved-card-status"]').textContent()).resolves.toBe(t("saved_card_status_active"))
      await shot("card-listed")

      await row.getByRole("button", { name: t("saved_card_delete", { card: name }) }).click()
      await section.locator('[data-testid="saved-cards-empty"]').waitFor()
      const customer = (await getContainer().resolve(Modules.CUSTOMER).listCustomers({ email: `kit-${locale.toLowerCase()}@example.test` }))[0]
      expect(customer).toBeDefined()
      await shot("card-deleted")
      expect(pageErrors).toEqual([])
    })

    it.each(LOCALES)("%s: a saved card picked at checkout pays without leaving the page; a plan picked and subscribed on the service's recurring page; the account lists the subscription and cancels it", async (locale) => {
      const t = (code: string, params?: Record<string, string>) => messageFor(code, locale, params)
      const shot = await screenshots(page, `kit-subscribe-${locale}`)
      await page.goto(`${site.url}/kit/${locale}/account`)
      await ready(page)
      await logInNewCustomer(page, publishableKey, { email: `kit-subscriber-${locale.toLowerCase()}@example.test`, password: "kit-components-1", first_name: "Mei", last_name: "Lin" })
      await page.reload()
      await ready(page)

      // A card bound through the account's section (as in the test above).
      await page.locator('[data-testid="saved-cards-section"]').getByRole("button", { name: t("saved_card_add") }).click()
      await page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/subscription/create/`))
      await page.waitForSelector("#payment-form")
      await submitCard(page, shot, SUCCESS_CARD)
      await page.waitForURL(`${site.url}/kit/${locale}/account`, { timeout: 30_000 })
      await page.locator('[data-testid="saved-card"][data-status="active"]').waitFor({ timeout: 30_000 })

      // The picker offers it, chosen; "Pay with this card" completes the cart: one token charge, the order on the page.
      await page.goto(`${site.url}/kit/${locale}/saved-card`)
      await ready(page)
      const picker = page.locator('[data-testid="saved-card-picker"]')
      await expect(picker.locator("legend").textContent()).resolves.toBe(t("saved_card_picker_legend"))
      const card = picker.getByLabel(t("saved_card_name", { last4: "4242" }), { exact: true })
      await card.waitFor()
      await expect(card.isChecked()).resolves.toBe(true)
      await shot("saved-card-picked")
      await picker.getByRole("button", { name: t("saved_card_pay") }).click()
      const result = page.locator('[data-testid="saved-card-result"]')
      await result.waitFor({ timeout: 30_000 })
      const cartId = await page.evaluate(() => localStorage.getItem("kit_test_cart_id"))
      const order = await orderOfCart(getContainer(), cartId!)
      expect(order).toBeDefined()
      await expect(result.textContent()).resolves.toBe(`order ${order!.display_id}`)
      const [payment] = order!.payment_collections.flatMap((c) => c.payments)
      expect(payment.captured_at).toBeTruthy()
      // The service's token charges carry the session's id as their order id.
      const charges = (await control(env.sandbox, "GET", `/transactions?orderId=${payment.payment_session_id}`)).transactions as Array<{ origin: string; status: string }>
      expect(charges).toEqual([expect.objectContaining({ origin: "tokenCharge", status: "charged" })])
      await shot("saved-card-paid")

      // The plan picker lists the box's monthly plan; subscribing leads to the service's recurring page.
      await page.goto(`${site.url}/kit/${locale}/subscribe`)
      await ready(page)
      const plan = page.getByRole("radio").first()
      await plan.waitFor()
      await expect(page.locator("fieldset legend").first().textContent()).resolves.toBe(t("plan_picker_legend"))
      await plan.check()
      await page.getByRole("button", { name: t("subscribe") }).click()
      await page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/`))
      await page.waitForSelector("#payment-form")
      await submitCard(page, shot, SUCCESS_CARD)
      await page.waitForURL(`${site.url}/kit/${locale}/return`, { timeout: 30_000 })
      await page.locator('[data-testid="payment-return"][data-state="order"]').waitFor({ timeout: 30_000 })

      // The account lists it, active once its first order is placed, and cancels it.
      await page.goto(`${site.url}/kit/${locale}/account`)
      await ready(page)
      const subscription = page.locator('[data-testid="subscription"]')
      await waitFor(
        async () => {
          await page.reload()
          await ready(page)
          await subscription.first().waitFor()
          return (await subscription.first().getAttribute("data-status")) === "active"
        },
        "the subscription listed active",
        30_000
      )
      await expect(subscription.locator('[data-testid="subscription-status"]').textContent()).resolves.toBe(t("subscription_status_active"))
      await shot("subscription-active")
      await subscription.getByRole("button", { name: t("subscription_cancel", { name: "Monthly tea box" }) }).click()
      await page.locator('[data-testid="subscription"][data-status="cancelled"]').waitFor({ timeout: 30_000 })
      await expect(subscription.locator('[data-testid="subscription-status"]').textContent()).resolves.toBe(t("subscription_status_cancelled"))
      await shot("subscription-cancelled")
      expect(pageErrors).toEqual([])
    })

    it.each(LOCALES)("%s: the product page's subscription offer, the whole payment step paying on the hosted page, and the order's payment block", async (locale) => {
      const t = (code: string, params?: Record<string, string>) => messageFor(code, locale, params)
      const shot = await screenshots(page, `kit-step-${locale}`)
      await page.goto(`${site.url}/kit/${locale}/product`)
      await ready(page)
      const offer = page.locator('[data-testid="product-subscribe"]')
      await offer.waitFor()
      await offer.getByRole("button", { name: t("subscribe") }).click()
      await expect(page.locator('[data-testid="chosen-plan"]').textContent()).resolves.toBe("Monthly tea box")
      await shot("plan-offered")

      await page.goto(`${site.url}/kit/${locale}/step`)
      await ready(page)
      const cartId = await page.evaluate(() => localStorage.getItem("kit_test_cart_id"))
      await page.getByLabel(t("option_hosted_card"), { exact: true }).check()
      await page.getByRole("button", { name: t("pay_hosted") }).click()
      await page.waitForURL((url) => url.href.startsWith(`${env.sandbox.checkoutHost}/checkout/`))
      await page.waitForSelector("#payment-form")
      await submitCard(page, shot, SUCCESS_CARD)
      await page.waitForURL(`${site.url}/kit/${locale}/return`, { timeout: 30_000 })
      await page.locator('[data-testid="payment-return"][data-state="order"]').waitFor({ timeout: 30_000 })
      const order = await orderOfCart(getContainer(), cartId!)
      expect(order).toBeDefined()

      await page.goto(`${site.url}/kit/${locale}/order?id=${order!.id}`)
      await ready(page)
      const block = page.locator('[data-testid="order-payment"]')
      await expect(block.getAttribute("data-state")).resolves.toBe("paid")
      await expect(block.locator("h2").textContent()).resolves.toBe(t("order_payment_title"))
      await expect(block.locator('[data-testid="order-payment-state"]').textContent()).resolves.toBe(`${t("order_payment_paid")} · ${t("payment_method_card")}`)
      await shot("order-paid")
      expect(pageErrors).toEqual([])
    })
  },
})
