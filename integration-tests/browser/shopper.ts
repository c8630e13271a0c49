import type { Page } from "playwright-core"
import type { Shot } from "./screenshots"

/**
 * What a shopper does in the demo storefront and on the sandbox's hosted page,
 * step by step, through the pages' stable ids. Each step waits for the page to
 * say it has finished drawing (`body[data-ready]`) and takes a screenshot.
 */
export const SHOPPER = {
  email: "mei.lin@example.test",
  last_name: "Lin",
  first_name: "Mei",
  phone: "0912345678",
  postal_code: "110",
  city: "Taipei City",
  address_1: "No. 7, Section 5, Xinyi Road, Xinyi District",
}

export const pageReady = (page: Page) => page.waitForSelector("body[data-ready]", { state: "attached" })

/**
 * A new customer account, registered and logged in through the page's origin the way the js-sdk keeps a
 * login (its token in localStorage); answers the customer's id.
 */
export async function logInNewCustomer(page: Page, publishableKey: string, account: { email: string; password: string; first_name: string; last_name: string }): Promise<string> {
  return page.evaluate(
    async ({ key, account }) => {
      const post = async (path: string, body: unknown, token?: string) => {
        const res = await fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json", "x-publishable-api-key": key, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
        if (!res.ok) {
          throw new Error(`${path}: ${res.status} ${await res.text()}`)
        }
        return res.json()
      }
      const login = { email: account.email, password: account.password }
      const { token: registration } = await post("/auth/customer/emailpass/register", login)
      const { customer } = await post("/store/customers", { email: account.email, first_name: account.first_name, last_name: account.last_name }, registration)
      const { token } = await post("/auth/customer/emailpass", login)
      localStorage.setItem("medusa_auth_token", token)
      return customer.id as string
    },
    { key: publishableKey, account }
  )
}

/** From the product list to a cart holding `quantity` of the product. */
export async function fillCart(page: Page, shot: Shot, storefrontUrl: string, product: string, quantity: number) {
  await page.goto(storefrontUrl)
  await pageReady(page)
  await shot("products")

  await page.locator('[data-testid="product-link"]', { hasText: product }).click()
  await page.waitForURL(/\/products\//)
  await pageReady(page)
  await shot("product")

  await page.click("#add-to-cart")
  await page.waitForSelector("#view-cart")
  await shot("added-to-cart")
  await page.click("#view-cart")
  await page.waitForURL(/\/cart$/)
  await pageReady(page)

  if (quantity !== 1) {
    const line = page.locator('[data-testid="cart-line"]', { hasText: product })
    await line.locator('[data-testid="line-quantity"]').fill(String(quantity))
    await line.locator('[data-testid="update-quantity"]').click()
    await page.waitForFunction(
      ([name, count]) => document.querySelector("#cart-count")?.textContent === count && document.body.textContent?.includes(name),
      [product, String(quantity)] as const
    )
  }
  await shot("cart")
}

/** From the cart through the address and delivery steps, to the payment step. */
export async function checkoutToPayment(page: Page, shot: Shot) {
  await page.click("#go-to-checkout")
  await page.waitForURL(/\/checkout$/)
  await pageReady(page)
  await addressAndDelivery(page, shot)
  await page.locator("#payment-option-hosted-checkout").waitFor()
}

/** On the checkout page: the address step, then home delivery; the payment step opens next. */
export async function addressAndDelivery(page: Page, shot: Shot) {
  for (const [field, value] of Object.entries(SHOPPER)) {
    await page.fill(`#${field}`, value)
  }
  await shot("address")
  await page.click("#address-submit")

  await page.locator("#shipping-options input[type=radio]").first().waitFor()
  await page.getByLabel(/Home delivery/).check()
  await shot("delivery")
  await page.click("#shipping-submit")
}

/**
 * Creates a customer account on the storefront's account page (`/account`,
 * or the login address a page sent the shopper to) and waits for the page it
 * leads to; the shopper is then logged in (the js-sdk's token in localStorage).
 */
export async function registerAccount(page: Page, shot: Shot, account: { email: string; password: string; first_name: string; last_name: string }) {
  await page.waitForURL(/\/account(\?|$)/)
  await pageReady(page)
  await page.fill("#register-last-name", account.last_name)
  await page.fill("#register-first-name", account.first_name)
  await page.fill("#register-email", account.email)
  await page.fill("#register-password", account.password)
  await shot("register")
  await Promise.all([page.waitForEvent("load"), page.click("#register-submit")])
  await pageReady(page)
}

/** Chooses "Pay on the hosted page" with a method, and goes to the hosted page; returns its transaction id. */
export async function payOnHostedPage(page: Page, shot: Shot, checkoutHost: string, method: "card" | "cvs" | "atm" | "linePay") {
  await page.check("#payment-option-hosted-checkout")
  await page.check(`#hosted-method-${method}`)
  await shot("payment-choice")
  await page.click("#pay")
  await page.waitForURL((url) => url.href.startsWith(`${checkoutHost}/checkout/`))
  await page.waitForSelector("#payment-form")
  await shot("hosted-page")
  // The hosted page lives at {checkoutHost}/checkout/{transaction id}.
  return new URL(page.url()).pathname.split("/").pop()!
}

/** Fills and submits the sandbox's card form. */
export async function submitCard(page: Page, shot: Shot, cardNumber: string) {
  await page.check("#method-card")
  await page.fill("#cardNumber", cardNumber)
  await page.fill("#cardExpiry", "12/34")
  await page.fill("#cardCvc", "123")
  await shot("hosted-card")
  await page.click("#submit")
}

/** Waits for the order confirmation the return page leads to. */
export async function confirmationPage(page: Page) {
  await page.waitForURL(/\/orders\/order_/, { timeout: 30_000 })
  await pageReady(page)
  return new URL(page.url()).pathname.split("/").pop()!
}

/** An e-invoice choice as the shopper enters it in the checkout's invoice step. */
export type InvoiceEntry =
  | { kind: "member" }
  | { kind: "barcode"; barcode: string }
  | { kind: "certificate"; number: string }
  | { kind: "company"; taxId: string; name?: string }

/** Chooses "Pay on the hosted page" and enters the e-invoice choice. */
export async function chooseInvoice(page: Page, entry: InvoiceEntry) {
  await page.check("#payment-option-hosted-checkout")
  await page.check(`#invoice-kind-${entry.kind}`)
  if (entry.kind === "barcode") {
    await page.fill("#invoice-barcode", entry.barcode)
  } else if (entry.kind === "certificate") {
    await page.fill("#invoice-certificate", entry.number)
  } else if (entry.kind === "company") {
    await page.fill("#invoice-tax-id", entry.taxId)
    await page.fill("#invoice-company-name", entry.name ?? "")
  }
}
