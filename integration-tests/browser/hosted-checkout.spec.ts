import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Page } from "playwright-core"
import { control, REFUSED_CARD, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
import { screenshots } from "./screenshots"
import { checkoutToPayment, chooseInvoice, confirmationPage, fillCart, type InvoiceEntry, logInNewCustomer, pageReady, payOnHostedPage, submitCard } from "./shopper"
import { reserveStorefront, useStorefrontShopper } from "./storefront-session"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)
const env = useSandbox()

// The demo store issues e-invoices (scripts/demo.ts): so does this one, and the sandbox's merchant below.
const storefront = reserveStorefront(() => ({ TW_EINVOICE: "true" }))

/** Waits for the checkout's payment error line to show a message matching `pattern`. */
const paymentError = (page: Page, pattern: string) =>
  page.waitForFunction((source) => {
    const line = document.querySelector<HTMLElement>("#payment-error")
    return Boolean(line && !line.hidden && new RegExp(source).test(line.textContent ?? ""))
  }, pattern)

interface OrderPayment {
  amount: unknown
  captured_at: unknown
  data: Record<string, unknown> | null
}

/** The order's payments as the backend has them (not as the page says). */
async function paymentsOfOrder(container: MedusaContainer, orderId: string): Promise<OrderPayment[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.payments.amount", "payment_collections.payments.captured_at", "payment_collections.payments.data"],
    filters: { id: orderId },
  })
  const collections = (data[0]?.payment_collections ?? []) as Array<{ payments?: OrderPayment[] } | null>
  return collections.flatMap((collection) => collection?.payments ?? [])
}

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    const shopper = useStorefrontShopper(storefront, { api, getContainer }, env, { merchant: { einvoiceActive: true } })

    it("card: a shopper browses, pays on the hosted page, and the confirmation shows the order paid", async () => {
      const shot = await screenshots(shopper.page, "card-success")
      await fillCart(shopper.page, shot, shopper.site.url, "Oolong Tea, 150 g", 2)
      await expect(shopper.page.textContent('[data-testid="total-subtotal"]')).resolves.toBe("NT$1,360")

      await checkoutToPayment(shopper.page, shot)
      await expect(shopper.page.textContent('#summary-totals [data-testid="total-total"]')).resolves.toBe("NT$1,460")
      await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "card")
      await expect(shopper.page.textContent("#amount")).resolves.toContain("TWD 1460")
      await submitCard(shopper.page, shot, SUCCESS_CARD)

      const orderId = await confirmationPage(shopper.page)
      await shot("confirmation")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await expect(shopper.page.textContent('[data-testid="payment-state"]')).resolves.toBe("Paid")
      await expect(shopper.page.textContent("#payment-method")).resolves.toContain("Credit card")
      await expect(shopper.page.textContent('#order-totals [data-testid="total-total"]')).resolves.toBe("NT$1,460")
      await expect(shopper.page.textContent("#cart-count")).resolves.toBe("0")

      const [payment] = await paymentsOfOrder(getContainer(), orderId)
      expect(Number(payment?.amount)).toBe(1460)
      expect(payment?.captured_at).toBeTruthy()
      // The invoice step's default: a cloud invoice to the member carrier, for the address's name and email, on the cart's lines.
      const tx = await control(env.sandbox, "GET", `/transactions/${payment?.data?.transactionId}`)
      expect(tx).toMatchObject({ invoiced: true, invoiceInfo: { invoiceType: "cloud", carrierType: "" }, userName: "Mei Lin", userEmail: "mei.lin@example.test" })
      expect(tx.productDetails).toEqual([
        expect.objectContaining({ description: "Oolong Tea, 150 g", quantity: 2, unitPrice: 680 }),
        expect.objectContaining({ description: expect.stringMatching(/Home delivery/), quantity: 1, unitPrice: 100 }),
      ])
      expect(shopper.pageErrors).toEqual([])
    })

    const transactionCount = async () => (await control(env.sandbox, "GET", "/transactions")).transactions.length

    /** From an empty cart to a paid order with this invoice choice; returns the sandbox's transaction. */
    async function paidWithInvoice(entry: InvoiceEntry, product: string) {
      const shot = await screenshots(shopper.page, `invoice-${entry.kind}`)
      await fillCart(shopper.page, shot, shopper.site.url, product, 1)
      await checkoutToPayment(shopper.page, shot)
      await chooseInvoice(shopper.page, entry)
      const transactionId = await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "card")
      await submitCard(shopper.page, shot, SUCCESS_CARD)
      const orderId = await confirmationPage(shopper.page)
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      const [payment] = await paymentsOfOrder(getContainer(), orderId)
      expect(payment?.data).toMatchObject({ transactionId })
      return { tx: await control(env.sandbox, "GET", `/transactions/${transactionId}`), payment: payment! }
    }

    it("e-invoice: a wrong check digit and a malformed barcode are refused in the page, naming the field, with nothing created; then a barcode pays", async () => {
      const shot = await screenshots(shopper.page, "invoice-refused")
      await fillCart(shopper.page, shot, shopper.site.url, "Bubble Tea Kit", 1)
      await checkoutToPayment(shopper.page, shot)
      const before = await transactionCount()

      await chooseInvoice(shopper.page, { kind: "company", taxId: "22099132" })
      await shopper.page.click("#pay")
      await paymentError(shopper.page, "^Company tax id: .*check digit")
      await expect(shopper.page.getAttribute("#invoice-tax-id", "aria-invalid")).resolves.toBe("true")
      await shot("wrong-check-digit")

      await chooseInvoice(shopper.page, { kind: "barcode", barcode: "/ABC12" })
      await shopper.page.click("#pay")
      await paymentError(shopper.page, "^Mobile barcode: ")
      await expect(shopper.page.getAttribute("#invoice-barcode", "aria-invalid")).resolves.toBe("true")
      await shot("malformed-barcode")
      expect(shopper.page.url()).toBe(`${shopper.site.url}/checkout`)
      expect(await transactionCount()).toBe(before)

      // Corrected (lower case is taken as the upper case the tax app shows): the order is paid with that carrier.
      await chooseInvoice(shopper.page, { kind: "barcode", barcode: "/abc+1.7" })
      const transactionId = await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "card")
      await submitCard(shopper.page, shot, SUCCESS_CARD)
      const orderId = await confirmationPage(shopper.page)
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      const tx = await control(env.sandbox, "GET", `/transactions/${transactionId}`)
      expect(tx.invoiceInfo).toEqual({ invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC+1.7" })
      const [payment] = await paymentsOfOrder(getContainer(), orderId)
      expect(payment?.data?.invoice).toEqual(tx.invoiceInfo)
      expect(shopper.pageErrors).toEqual([])
    })

    it("e-invoice: a logged-in customer's choice is kept and filled in at their next checkout", async () => {
      const shot = await screenshots(shopper.page, "invoice-remembered")
      await shopper.page.goto(shopper.site.url)
      await pageReady(shopper.page)
      // A customer account, logged in the way the js-sdk keeps it (its token in localStorage), through the storefront's origin.
      const customerId = await logInNewCustomer(shopper.page, shopper.publishableKey, { email: "chen.ya@example.test", password: "tea-lover-2026", first_name: "Ya", last_name: "Chen" })

      const company = { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "Taipei Tea Co." }
      const { tx } = await paidWithInvoice({ kind: "company", taxId: "10458574", name: "Taipei Tea Co." }, "Oolong Tea, 150 g")
      expect(tx.invoiceInfo).toEqual(company)
      const customer = await getContainer().resolve(Modules.CUSTOMER).retrieveCustomer(customerId)
      expect(customer.metadata?.tw_invoice).toEqual(company)

      await fillCart(shopper.page, shot, shopper.site.url, "Bubble Tea Kit", 1)
      await checkoutToPayment(shopper.page, shot)
      await shopper.page.check("#payment-option-hosted-checkout")
      await shopper.page.waitForFunction(() => (document.querySelector("#invoice-tax-id") as HTMLInputElement | null)?.value === "10458574")
      await expect(shopper.page.isChecked("#invoice-kind-company")).resolves.toBe(true)
      await expect(shopper.page.inputValue("#invoice-company-name")).resolves.toBe("Taipei Tea Co.")
      await shot("remembered")
      expect(shopper.pageErrors).toEqual([])
    })

    it.each<[string, InvoiceEntry, Record<string, string>]>([
      ["citizen certificate", { kind: "certificate", number: "AB12345678901234" }, { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" }],
      // 10458574: a 7 in the 7th digit, valid only by the sum + 1 rule.
      ["company", { kind: "company", taxId: "10458574", name: "Taipei Tea Co." }, { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "Taipei Tea Co." }],
    ])("e-invoice: %s goes through to a paid order carrying exactly that invoiceInfo", async (_name, entry, expected) => {
      const { tx, payment } = await paidWithInvoice(entry, "Pineapple Cakes, box of 10")
      expect(tx.invoiceInfo).toEqual(expected)
      expect(payment.data?.invoice).toEqual(expected)
      expect(shopper.pageErrors).toEqual([])
    })

    it("declined card: the failure page explains it, and paying again on the same cart succeeds", async () => {
      const shot = await screenshots(shopper.page, "decline-then-retry")
      await fillCart(shopper.page, shot, shopper.site.url, "Pineapple Cakes, box of 10", 1)
      const cartId = await shopper.page.evaluate(() => localStorage.getItem("medusa_payment_tw_demo_cart_id"))
      await checkoutToPayment(shopper.page, shot)
      const first = await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "card")
      await submitCard(shopper.page, shot, REFUSED_CARD)

      await shopper.page.waitForURL(/\/checkout\/hosted\/failed\?payment_error=T0003$/)
      await pageReady(shopper.page)
      await shot("failed")
      await expect(shopper.page.textContent('[data-testid="payment-error-message"]')).resolves.toMatch(/card issuer declined the payment/)

      await shopper.page.click("#retry-payment")
      await shopper.page.waitForURL(/\/checkout$/)
      await pageReady(shopper.page)
      // Address and delivery are kept: the checkout opens at the payment step.
      await expect(shopper.page.isVisible("#step-payment")).resolves.toBe(true)
      await expect(shopper.page.inputValue("#email")).resolves.toBe("mei.lin@example.test")
      await expect(shopper.page.evaluate(() => localStorage.getItem("medusa_payment_tw_demo_cart_id"))).resolves.toBe(cartId)
      await shot("retry-checkout")

      const second = await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "card")
      expect(second).not.toBe(first)
      await submitCard(shopper.page, shot, SUCCESS_CARD)

      const orderId = await confirmationPage(shopper.page)
      await shot("confirmation")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      const payments = await paymentsOfOrder(getContainer(), orderId)
      expect(payments).toHaveLength(1)
      expect(payments[0]?.data).toMatchObject({ transactionId: second, status: "charged" })
      expect(shopper.pageErrors).toEqual([])
    })

    it("convenience store: the confirmation shows the code and deadline, then paid once the code is paid", async () => {
      const shot = await screenshots(shopper.page, "cvs")
      await fillCart(shopper.page, shot, shopper.site.url, "Bubble Tea Kit", 1)
      await checkoutToPayment(shopper.page, shot)
      const transactionId = await payOnHostedPage(shopper.page, shot, env.sandbox.checkoutHost, "cvs")

      await shopper.page.check("#method-cvs")
      await shopper.page.selectOption("#cvsName", "FamilyMart")
      await shot("hosted-cvs")
      await shopper.page.click("#submit")
      await shopper.page.waitForSelector("#payment-code")
      const code = (await shopper.page.textContent("#payment-code"))!
      const deadline = (await shopper.page.textContent("#expired-at"))!
      await shot("code-issued")

      await shopper.page.click("#continue")
      const orderId = await confirmationPage(shopper.page)
      await shot("confirmation-awaiting")
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("awaiting")
      await expect(shopper.page.textContent('[data-testid="payment-state"]')).resolves.toBe("Awaiting payment")
      await expect(shopper.page.textContent('[data-testid="cvs-name"]')).resolves.toBe("FamilyMart")
      await expect(shopper.page.textContent('[data-testid="payment-code"]')).resolves.toBe(code)
      await expect(shopper.page.getAttribute('[data-testid="pay-before"] time', "datetime")).resolves.toBe(deadline)
      await expect(shopper.page.textContent('[data-testid="pay-before"]')).resolves.toMatch(/Taipei time/)
      expect(await paymentsOfOrder(getContainer(), orderId)).toHaveLength(0)

      // The shopper pays at the counter; the sandbox notifies the store, which captures after its 5 s delay.
      await control(env.sandbox, "POST", `/transactions/${transactionId}/pay`)
      await waitFor(
        async () => (await paymentsOfOrder(getContainer(), orderId)).some((payment) => payment.captured_at),
        "the notification to capture the payment",
        60_000
      )
      const reloaded = shopper.page.waitForEvent("load")
      await shopper.page.click("#reload-order")
      await reloaded
      await pageReady(shopper.page)
      await expect(shopper.page.getAttribute('[data-testid="payment-state"]', "data-state")).resolves.toBe("paid")
      await expect(shopper.page.isVisible('[data-testid="payment-instructions"]')).resolves.toBe(false)
      await shot("confirmation-paid")
      expect(shopper.pageErrors).toEqual([])
    })
  },
})
