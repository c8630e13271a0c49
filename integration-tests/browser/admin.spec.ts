import type { Browser, Page } from "playwright-core"
import { launchChromium } from "../../scripts/chromium"
import { card, control, payPage, PROVIDER_ID, SUCCESS_CARD, waitFor } from "../helpers/hosted-store"
import { DELIVERY_KINDS, DELIVERY_VERDICTS, type HealthFigures, type HealthResponse, PAYMENT_OUTCOMES, PLACEMENT_PATHS, VERDICTS_OF } from "../../src/shared/health-views"
import { medusaCommand } from "../helpers/store-database"
import { startAdminStore, type AdminStore } from "./admin-store"
import { screenshots } from "./screenshots"

jest.setTimeout(600_000)

const SHOPPER = { email: "mei.lin@example.test", password: "tea-every-month-1", first_name: "Mei", last_name: "Lin" }
const ADDRESS = { first_name: "Mei", last_name: "Lin", address_1: "No. 7, Section 5, Xinyi Road", city: "Taipei", postal_code: "110", country_code: "tw", phone: "0912345678" }

/** A JSON call to the store; throws on an HTTP error. Answers are typed loosely on purpose, as in the http tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call<T = Record<string, any>>(store: AdminStore, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const res = await fetch(`${store.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`)
  }
  return JSON.parse(text) as T
}

/**
 * What the admin shows, made as a shopper makes it, over HTTP: a customer with a saved card, and a
 * monthly subscription of the seeded plan paid on the service's page, so its first order has a
 * hosted-checkout payment.
 */
async function shopperData(store: AdminStore) {
  const { token: adminToken } = await call(store, "POST", "/auth/user/emailpass", {}, store.admin)
  const admin = { authorization: `Bearer ${adminToken}` }
  const { api_keys } = await call(store, "GET", "/admin/api-keys?type=publishable", admin)
  const publishable = { "x-publishable-api-key": api_keys[0].token as string }

  const { token: registered } = await call(store, "POST", "/auth/customer/emailpass/register", {}, { email: SHOPPER.email, password: SHOPPER.password })
  const { customer } = await call(store, "POST", "/store/customers", { ...publishable, authorization: `Bearer ${registered}` }, { email: SHOPPER.email, first_name: SHOPPER.first_name, last_name: SHOPPER.last_name })
  const { token } = await call(store, "POST", "/auth/customer/emailpass", {}, { email: SHOPPER.email, password: SHOPPER.password })
  const shopper = { ...publishable, authorization: `Bearer ${token}` }

  // A saved card: the binding page, then the token notification.
  const binding = await call(store, "POST", "/store/customers/me/tw-saved-cards", shopper, { return_path: "/account" })
  await payPage(binding.checkout_url, card(SUCCESS_CARD))
  await waitFor(async () => {
    const { saved_cards } = await call(store, "GET", `/admin/customers/${customer.id}/tw-saved-cards`, admin)
    return saved_cards.some((c: { status: string }) => c.status === "active")
  }, "the saved card active")

  // The seeded plan's variant, alone in a cart with an address and delivery, paid on the recurring page.
  const { products } = await call(store, "GET", "/store/products?handle=tea-of-the-month&fields=id,*variants", publishable)
  const product = products[0]
  const variantId: string = product.variants[0].id
  const { plans } = await call(store, "GET", `/admin/product-variants/${variantId}/tw-subscription-plans`, admin)
  const { regions } = await call(store, "GET", "/store/regions", publishable)
  const { cart } = await call(store, "POST", "/store/carts", shopper, { region_id: regions.find((r: { name: string }) => r.name === "Taiwan").id })
  await call(store, "POST", `/store/carts/${cart.id}/line-items`, shopper, { variant_id: variantId, quantity: 1 })
  await call(store, "POST", `/store/carts/${cart.id}`, shopper, { shipping_address: ADDRESS, billing_address: ADDRESS })
  const { shipping_options } = await call(store, "GET", `/store/shipping-options?cart_id=${cart.id}`, shopper)
  await call(store, "POST", `/store/carts/${cart.id}/shipping-methods`, shopper, { option_id: shipping_options[0].id })
  const started = await call(store, "POST", `/store/carts/${cart.id}/tw-subscription`, shopper, { plan_id: plans[0].id })
  await payPage(started.payment_session.data.checkoutUrl, card(SUCCESS_CARD))
  const subscription = await waitFor(async () => {
    const { subscription: s } = await call(store, "GET", `/admin/tw-subscriptions/${started.subscription.id}`, admin)
    return s.status === "active" && s.first_order_id && s.service_subscription_id ? s : undefined
  }, "the subscription active with its first order", 60_000)
  const { order } = await call(store, "GET", `/admin/orders/${subscription.first_order_id}?fields=id,*payment_collections.payments`, admin)
  const payment = order.payment_collections[0].payments[0]
  const { payment: twPayment } = await call(store, "GET", `/admin/tw-payments/${payment.id}`, admin)

  // A cvs code taken on a page whose session the store had replaced, then paid: money due for remittance.
  const { cart: other } = await call(store, "POST", "/store/carts", shopper, { region_id: regions.find((r: { name: string }) => r.name === "Taiwan").id })
  await call(store, "POST", `/store/carts/${other.id}/line-items`, shopper, { variant_id: variantId, quantity: 1 })
  const { payment_collection: collection } = await call(store, "POST", "/store/payment-collections", shopper, { cart_id: other.id })
  const session = async () =>
    (await call(store, "POST", `/store/payment-collections/${collection.id}/payment-sessions`, shopper, { provider_id: PROVIDER_ID, data: { methods: ["cvs"] } })).payment_collection.payment_sessions[0]
  const dropped = await session()
  await session()
  await payPage(dropped.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
  await control(store.sandbox, "POST", `/transactions/${dropped.data.transactionId}/pay`)
  const remittance = await waitFor(async () => {
    const { remittances } = await call(store, "GET", "/admin/tw-remittances", admin)
    return remittances.find((r: { transaction_id: string }) => r.transaction_id === dropped.data.transactionId)
  }, "the paid code listed as due for remittance", 60_000)
  return { remittance, customerId: customer.id as string, productId: product.id as string, variantId, planTitle: plans[0].title as string, subscription, orderId: order.id as string, transactionHid: twPayment.transaction_hid as string }
}

const text = (page: Page, testId: string) => page.getByTestId(testId).first().innerText()

/** Every number in a text (thousands separators dropped). */
const numbers = (value: string) => (value.replace(/(\d),(\d)/g, "$1$2").match(/\d+(\.\d+)?/g) ?? []).map(Number)

/** The health page's figures by name, as shown; a cell a kind cannot have ("-") is left out. */
async function shownFigures(page: Page): Promise<Array<[string, number]>> {
  const shown: Array<[string, number]> = []
  for (const outcome of PAYMENT_OUTCOMES) {
    shown.push([`payments.${outcome}`, numbers(await text(page, `tw-health-payments-${outcome}`)).at(-1)!])
  }
  for (const path of PLACEMENT_PATHS) {
    const [, count, share, p50, p95] = await page.getByTestId(`tw-health-placement-${path}`).locator("td").allInnerTexts()
    shown.push([`placements.${path}.count`, Number(count)], [`placements.${path}.share`, numbers(share)[0]], [`placements.${path}.p50`, numbers(p50)[0]], [`placements.${path}.p95`, numbers(p95)[0]])
  }
  for (const kind of DELIVERY_KINDS) {
    const cells = (await page.getByTestId(`tw-health-deliveries-${kind}`).locator("td").allInnerTexts()).slice(1)
    DELIVERY_VERDICTS.forEach((verdict, i) => cells[i].trim() !== "-" && shown.push([`deliveries.${kind}.${verdict}`, Number(cells[i])]))
  }
  for (const [name, testId] of [["refundsAwaiting", "tw-health-refunds-awaiting"], ["remittancesDue", "tw-health-remittances-due"]]) {
    const [count, amount] = numbers((await text(page, testId)).split("\n").at(-1)!)
    shown.push([`money.${name}.count`, count], [`money.${name}.amount`, amount])
  }
  for (const [name, testId] of [["retrying", "tw-health-subscriptions-retrying"], ["exhausted", "tw-health-subscriptions-exhausted"], ["renewalsUnplaced", "tw-health-renewals-unplaced"], ["openCharges", "tw-health-open-charges"]]) {
    shown.push([`others.${name}`, numbers(await text(page, testId)).at(-1)!])
  }
  return shown
}

/** The same names and values from the health answer. */
function expectedFigures(figures: HealthFigures): Record<string, number | null> {
  return {
    ...Object.fromEntries(PAYMENT_OUTCOMES.map((outcome) => [`payments.${outcome}`, figures.payments[outcome]])),
    ...Object.fromEntries(
      PLACEMENT_PATHS.flatMap((path) => {
        const placed = figures.placements[path]
        return [[`placements.${path}.count`, placed.count], [`placements.${path}.share`, Math.round(placed.share * 100)], [`placements.${path}.p50`, placed.p50], [`placements.${path}.p95`, placed.p95]]
      })
    ),
    ...Object.fromEntries(DELIVERY_KINDS.flatMap((kind) => VERDICTS_OF[kind].map((verdict) => [`deliveries.${kind}.${verdict}`, figures.deliveries[kind][verdict]]))),
    "money.refundsAwaiting.count": figures.money.refundsAwaiting.count,
    "money.refundsAwaiting.amount": figures.money.refundsAwaiting.amount,
    "money.remittancesDue.count": figures.money.remittancesDue.count,
    "money.remittancesDue.amount": figures.money.remittancesDue.amount,
    "others.retrying": figures.subscriptions.retrying,
    "others.exhausted": figures.subscriptions.exhausted,
    "others.renewalsUnplaced": figures.subscriptions.renewalsUnplaced,
    "others.openCharges": figures.savedCards.openCharges,
  }
}

/**
 * Every admin page and widget of the plugin, in Chromium, against a running store: each shows the
 * data the shopper's flows made, loaded through the JS SDK and React Query.
 */
describe("the admin's pages and widgets", () => {
  let store: AdminStore
  let browser: Browser
  let data: Awaited<ReturnType<typeof shopperData>>
  const timings: Record<string, number> = {}

  beforeAll(async () => {
    let started = Date.now()
    store = await startAdminStore()
    timings.store = Date.now() - started
    started = Date.now()
    data = await shopperData(store)
    timings.data = Date.now() - started
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await store?.stop()
    console.log(`[admin browser] store ${timings.store} ms, shopper data ${timings.data} ms, pages ${timings.pages} ms`)
  })

  it("shows the subscriptions list and detail, the customer's saved cards and subscriptions, the order's subscription and payment, the variant's plans, and refunds a remittance due", async () => {
    const started = Date.now()
    const page = await browser.newPage()
    // The first page compiles the admin's modules (Vite dev middleware): slow on a loaded machine.
    page.setDefaultTimeout(180_000)
    const shot = await screenshots(page, "admin")
    const app = `${store.url}/app`
    const s = data.subscription

    try {
      await page.goto(`${app}/login`)
      await page.fill('input[name="email"]', store.admin.email)
      await page.fill('input[name="password"]', store.admin.password)
      await page.click('button[type="submit"]')
      await page.locator('a[href="/app/tw-subscriptions"]').first().waitFor({ state: "attached" })
      page.setDefaultTimeout(30_000)

      // The list: the subscription with its customer's name (a second request), plan and status.
      await page.goto(`${app}/tw-subscriptions`)
      await page.getByRole("heading", { level: 1, name: "Subscriptions" }).waitFor()
      await page.getByTestId("tw-subscription-link").filter({ hasText: s.service_subscription_id }).waitFor()
      const row = page.locator("tr", { has: page.getByTestId("tw-subscription-link") }).first()
      await row.getByText("Mei Lin").waitFor()
      await expect(row.innerText()).resolves.toMatch(new RegExp(`${data.planTitle}: Monthly[\\s\\S]*NT\\$1,000[\\s\\S]*Active[\\s\\S]*1 / 12`))
      await shot("subscriptions-list")
      // The status filter lives in the URL: another status lists nothing.
      await page.goto(`${app}/tw-subscriptions?status=cancelled`)
      await page.getByText("No subscriptions with this status").waitFor()

      // The detail: terms, customer, the first period with its order.
      await page.goto(`${app}/tw-subscriptions/${s.id}`)
      await page.getByRole("heading", { level: 1, name: `Subscription ${s.service_subscription_id}` }).waitFor()
      const detail = await text(page, "tw-subscription-detail")
      expect(detail).toContain(`Mei Lin (${SHOPPER.email})`)
      expect(detail).toContain(s.first_order_id)
      expect(detail).toContain("1 / 12")
      const period = await text(page, "tw-subscription-period")
      expect(period).toMatch(/1\s+Paid/)
      expect(period).toContain("First order")
      await expect(page.getByTestId("tw-subscription-cancel").isVisible()).resolves.toBe(true)
      await shot("subscription-detail")

      // The customer page: the saved card and the subscription.
      await page.goto(`${app}/customers/${data.customerId}`)
      await page.getByTestId("tw-saved-card-row").waitFor()
      expect(await text(page, "tw-saved-card-row")).toMatch(/•••• 4242[\s\S]*Active/)
      await page.getByTestId("tw-customer-subscriptions").getByTestId("tw-subscription-link").filter({ hasText: s.service_subscription_id }).waitFor()
      expect(await text(page, "tw-customer-subscriptions")).toContain(data.planTitle)
      await shot("customer")

      // The first order: its subscription and its hosted-checkout payment at the service.
      await page.goto(`${app}/orders/${data.orderId}`)
      await page.getByTestId("tw-order-subscription").waitFor()
      expect(await text(page, "tw-order-subscription")).toContain("This order is the first order of the subscription below.")
      await page.getByTestId("tw-payment-transaction").filter({ hasText: data.transactionHid }).waitFor()
      expect(await text(page, "tw-payment-method")).toBe("Method: card")
      await shot("order")

      // The variant: the seeded plan, offered.
      await page.goto(`${app}/products/${data.productId}/variants/${data.variantId}`)
      await page.getByTestId("tw-variant-plan-row").waitFor()
      expect(await text(page, "tw-variant-plan-row")).toMatch(new RegExp(`${data.planTitle}[\\s\\S]*Monthly[\\s\\S]*12[\\s\\S]*at checkout`))
      await expect(page.getByRole("switch", { name: `Offer ${data.planTitle}` }).getAttribute("aria-checked")).resolves.toBe("true")
      await shot("variant")

      // Remittances: the code paid for a dropped session, refunded to the account typed in the drawer.
      const r = data.remittance
      await page.goto(`${app}/tw-remittances`)
      await page.getByRole("heading", { level: 1, name: "Remittances due" }).waitFor()
      const due = page.getByTestId(`tw-remittance-${r.id}`)
      const amount = Number(r.amount).toLocaleString("en-US")
      await expect(due.innerText()).resolves.toMatch(new RegExp(`${r.transaction_hid} \\(cvs\\)[\\s\\S]*NT\\$${amount}[\\s\\S]*paid after`))
      await shot("remittances")
      await page.getByTestId(`tw-remittance-refund-${r.id}`).click()
      const fields = { bankCode: "004", bankName: "Bank of Taiwan", branchCode: "0037", branchName: "Xinyi", account: "123", accountName: "Mei Lin" }
      for (const [name, value] of Object.entries(fields)) {
        await page.fill(`#tw-${r.id}-${name}`, value)
      }
      // The account is checked before anything is sent: the refusal stays in the drawer.
      await page.getByRole("dialog").getByRole("button", { name: "Refund" }).click()
      await page.getByTestId("tw-remittance-refusal").waitFor()
      expect(await text(page, "tw-remittance-refusal")).toContain("account")
      await page.fill(`#tw-${r.id}-account`, "123456789012")
      await page.getByRole("dialog").getByRole("button", { name: "Refund" }).click()
      await page.getByText(`Refunded ${r.amount} TWD of ${r.transaction_hid}`).waitFor()
      await page.getByText("Nothing is due.").waitFor()
      const refunded = await control(store.sandbox, "GET", `/transactions/${r.transaction_id}`)
      expect(refunded.refundAmount).toBe(r.amount)
      await page.goto(`${app}/tw-remittances?status=refunded`)
      await page.getByTestId(`tw-remittance-${r.id}`).waitFor()
      await shot("remittances-refunded")
    } catch (error) {
      await shot("failure").catch(() => undefined)
      console.log(store.logs.slice(-40).join("\n"))
      throw error
    } finally {
      timings.pages = Date.now() - started
      await page.close()
    }
  })

  it("shows every payments health figure in both languages, from a store with a week's history", async () => {
    // The history: the flows above, a refund of the subscription's first payment through core's admin
    // route, and what those flows did not live through (seed-payments-history.ts).
    const { token } = await call(store, "POST", "/auth/user/emailpass", {}, store.admin)
    const admin = { authorization: `Bearer ${token}` }
    const { order } = await call(store, "GET", `/admin/orders/${data.orderId}?fields=id,*payment_collections.payments`, admin)
    const paymentId: string = order.payment_collections[0].payments[0].id
    await call(store, "POST", `/admin/payments/${paymentId}/refund`, admin, { amount: 100 })
    await medusaCommand(["exec", "./integration-tests/browser/seed-payments-history.ts"], { ...store.env, PAYMENT_ID: paymentId })
    const { figures } = await call<HealthResponse>(store, "GET", "/admin/tw-payments/health?window=week", admin)

    const page = await browser.newPage()
    const shot = await screenshots(page, "admin-payments-health")
    try {
      await page.goto(`${store.url}/app/login`)
      await page.fill('input[name="email"]', store.admin.email)
      await page.fill('input[name="password"]', store.admin.password)
      await page.click('button[type="submit"]')
      await page.locator('a[href="/app/tw-payments-health"]').first().waitFor({ state: "attached" })
      await page.goto(`${store.url}/app/tw-payments-health?window=week`)
      await page.getByRole("heading", { level: 1, name: "Payments health" }).waitFor()
      await page.getByTestId("tw-health-payments").waitFor()
      const shown = await shownFigures(page)
      // Every figure the page shows is above zero, and is the answer's.
      expect(shown.filter(([, value]) => !(value > 0))).toEqual([])
      expect(Object.fromEntries(shown)).toEqual(expectedFigures(figures))
      expect(await text(page, "tw-health-payments-captured")).toMatch(/^Captured\s/)
      expect(await text(page, "tw-health-deliveries-notification")).toMatch(/^Notifications \(hosted\)/)
      await shot("payments-health")

      // The dashboard's language detector reads the `lng` cookie, then local storage.
      await page.context().addCookies([{ name: "lng", value: "zhTW", url: store.url }])
      await page.evaluate(() => localStorage.setItem("lng", "zhTW"))
      await page.reload()
      await page.getByRole("heading", { level: 1, name: "金流健康" }).waitFor()
      await page.getByTestId("tw-health-payments").waitFor()
      expect(Object.fromEntries(await shownFigures(page))).toEqual(expectedFigures(figures))
      expect(await text(page, "tw-health-payments-captured")).toMatch(/^已請款\s/)
      expect(await text(page, "tw-health-deliveries-notification")).toMatch(/^付款通知（導轉付款）/)
      expect(await text(page, "tw-health-subscriptions-retrying")).toMatch(/^重試中\s/)
      await shot("payments-health-zh-tw")
    } finally {
      await page.close()
    }
  })
})
