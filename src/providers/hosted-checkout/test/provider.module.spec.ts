import path from "node:path"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import * as PaymentModels from "@medusajs/payment/dist/models"
import { card, control, payPage, SUCCESS_CARD } from "../../../../integration-tests/helpers/hosted-store"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { Attestor } from "../../core/attestation"
import { HostedCheckoutProviderService } from "../service"
import { renewalLines } from "../invoice-details"
import { RENEWAL_CONTEXT_KEY, sealRenewalTerms, sealSubscriptionTerms, SUBSCRIPTION_CONTEXT_KEY } from "../subscription-terms"

jest.setTimeout(120_000)

/**
 * The provider inside Medusa's real payment module (PostgreSQL), against the
 * sandbox over HTTP, with e-invoicing on: the module test covers what the
 * store tests do not reach (provider options other than the store's).
 */
const PROVIDER = "pp_hosted-checkout_einvoice"
let sandbox: SandboxHandle
// Filled once the sandbox is up; the runner reads it when it boots the module.
const providerOptions: Record<string, unknown> = {}

beforeAll(async () => {
  sandbox = await startSandbox({ tickMs: 0 })
  Object.assign(providerOptions, {
    apiToken: sandbox.defaultMerchant.token,
    merchantId: sandbox.defaultMerchant.merchantId,
    apiBaseUrl: sandbox.hostedBaseUrl,
    checkoutHost: sandbox.checkoutHost,
    storefrontUrl: "https://shop.test",
    allowedMethods: ["card", "cvs"],
    einvoice: true,
  })
})
afterAll(async () => {
  await sandbox?.close()
})

const quietLogger = { info() {}, warn() {}, error() {}, debug() {} }
const customer = { id: "cus_1", email: "lin@example.test", first_name: "Mei", last_name: "Lin" }
/** A subscription cart's lines as the store gives them (990 TWD), and the lines invoiced on them. */
const SUBSCRIPTION_LINES = [
  { code: "TEA-1", description: "Oolong tea", quantity: 2, amount: 800 },
  { code: "SHIPPING", description: "Delivery", quantity: 1, amount: 190 },
]
const SUBSCRIPTION_INVOICED = [
  { productionCode: "TEA-1", description: "Oolong tea", quantity: 2, unit: "item", unitPrice: 400 },
  { productionCode: "SHIPPING", description: "Delivery", quantity: 1, unit: "item", unitPrice: 190 },
]

moduleIntegrationTestRunner<IPaymentModuleService>({
  moduleName: Modules.PAYMENT,
  resolve: path.dirname(require.resolve("@medusajs/payment/package.json")),
  moduleModels: Object.values(PaymentModels),
  moduleOptions: { providers: [{ resolve: path.resolve(__dirname, ".."), id: "einvoice", options: providerOptions }] },
  testSuite: ({ service }) => {
    beforeEach(async () => {
      await control(sandbox, "POST", "/reset")
      await control(sandbox, "PATCH", `/merchants/${sandbox.defaultMerchant.merchantId}`, { einvoiceActive: true })
    })

    const transactionCount = async () => (await control(sandbox, "GET", "/transactions")).transactions.length

    async function session(amount: number, data: Record<string, unknown> = {}, currency = "twd", withCustomer = true) {
      const [collection] = await service.createPaymentCollections([{ amount, currency_code: currency }])
      return service.createPaymentSession(collection.id, {
        provider_id: PROVIDER,
        amount,
        currency_code: currency,
        data,
        context: withCustomer ? { customer } : {},
      })
    }

    it("is registered under its provider id", async () => {
      const providers = await service.listPaymentProviders()
      expect(providers.map((p) => p.id)).toContain(PROVIDER)
    })

    it.each([
      [1000, "usd", {}, /only takes TWD/],
      [12.5, "twd", {}, /whole dollars/],
      [1000, "twd", { price: 1 }, /Invalid payment session data/],
      [1000, "twd", { methods: ["atm"] }, /not offered by this store: atm/],
    ])("refuses %p %s %p before calling the service", async (amount, currency, data, message) => {
      const before = await transactionCount()
      await expect(session(amount, data, currency)).rejects.toThrow(message)
      expect(await transactionCount()).toBe(before)
    })

    it("e-invoice: needs the buyer's name and email, and says which is missing", async () => {
      await expect(session(500, {}, "twd", false)).rejects.toThrow(/buyer's name and email; this cart has no name and no email/)
      await expect(session(500, { buyer: { name: "Mei Lin" } }, "twd", false)).rejects.toThrow(/this cart has no email/)
    })

    it.each([
      ["a short mobile barcode", { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC12" }, /invoice\.carrierId: must be a mobile barcode/],
      ["a lower-case mobile barcode", { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/abc1234" }, /invoice\.carrierId/],
      ["a malformed certificate", { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "A123456789012345" }, /invoice\.carrierId: must be a natural-person certificate/],
      ["a cloud invoice without carrier type", { invoiceType: "cloud" }, /invoice\.carrierType: is required/],
      ["a wrong check digit", { invoiceType: "company", buyerIdentifier: "22099132" }, /invoice\.buyerIdentifier: must be an 8-digit company tax id/],
      ["a 7-digit tax id", { invoiceType: "company", buyerIdentifier: "2209913" }, /invoice\.buyerIdentifier/],
      ["a company invoice without tax id", { invoiceType: "company" }, /invoice\.buyerIdentifier: is required/],
      ["an unknown invoice type", { invoiceType: "paper" }, /invoice\.invoiceType/],
    ])("e-invoice: refuses %s, naming the field, before calling the service", async (_what, invoice, message) => {
      const before = await transactionCount()
      await expect(session(800, { invoice })).rejects.toThrow(message)
      expect(await transactionCount()).toBe(before)
    })

    it("e-invoice: a new amount makes a new page with the same invoice choice and buyer", async () => {
      const invoice = { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "Taipei Tea Co." }
      const created = await session(900, { invoice, buyer: { name: "Mei Lin", email: "mei@example.test" } }, "twd", false)
      const updated = await service.updatePaymentSession({ id: created.id, amount: 1100, currency_code: "twd", data: created.data as Record<string, unknown> })
      const data = updated.data as { transactionId: string; invoiceLines: unknown }
      expect(data.transactionId).not.toBe((created.data as { transactionId: string }).transactionId)
      const tx = await control(sandbox, "GET", `/transactions/${data.transactionId}`)
      expect(tx).toMatchObject({ amount: 1100, invoiceInfo: invoice, userName: "Mei Lin", userEmail: "mei@example.test" })
      expect(data.invoiceLines).toEqual(tx.productDetails)
    })

    it("e-invoice: sends the customer's name and email, keeps session data public, and refunds with productDetails", async () => {
      const created = await session(1200, { invoice: { invoiceType: "cloud", carrierType: "" } })
      const data = created.data as { checkoutUrl: string; transactionId: string }
      // The storefront's own `invoice` is kept by Medusa next to what the provider returned.
      // As the storefront receives it (JSON): keys a new checkout clears are gone.
      expect(Object.keys(JSON.parse(JSON.stringify(data))).sort()).toEqual(
        ["amount", "checkoutUrl", "expiresAt", "invoice", "invoiceLines", "session_id", "status", "transactionHid", "transactionId"].sort()
      )
      expect(JSON.stringify(created)).not.toContain(sandbox.defaultMerchant.token)

      const tx = await control(sandbox, "GET", `/transactions/${data.transactionId}`)
      expect(tx).toMatchObject({ userName: "Mei Lin", userEmail: "lin@example.test", customId: created.id, orderId: created.id })

      await payPage(data.checkoutUrl, card(SUCCESS_CARD))
      const payment = await service.authorizePaymentSession(created.id, {})
      if (!payment) {
        throw new Error("a paid transaction must authorize the session")
      }
      expect(payment.captured_at).toBeTruthy()

      // The service refuses a refund of an invoiced transaction without productDetails
      // (PRODUCT_DETAILS_REQUIRED): this passes only because the provider sends them.
      await service.refundPayment({ payment_id: payment.id, amount: 400 })
      const refunded = await control(sandbox, "GET", `/transactions/${data.transactionId}`)
      expect(refunded).toMatchObject({ status: "refunded", refundAmount: 400, refund: { allowance: [{ quantity: 1, unitPrice: 400 }] } })
    })

    it("authorize refuses a transaction that belongs to another session", async () => {
      const first = await session(300)
      const second = await session(300)
      const provider = new HostedCheckoutProviderService({ logger: quietLogger }, providerOptions as never)
      const stolen = { ...(second.data as object), transactionId: (first.data as { transactionId: string }).transactionId }
      await expect(provider.authorizePayment({ data: stolen, context: { idempotency_key: second.id } })).rejects.toThrow(/another session/)
    })

    it("a subscription checkout carries the shopper's invoice choice and the customer as buyer", async () => {
      const terms = sealSubscriptionTerms(new Attestor(sandbox.defaultMerchant.token), {
        subscription_id: "twsub_invoice",
        customer_id: customer.id,
        kind: "monthly",
        interval_months: 1,
        periods: null,
        start_date: null,
        amount: 990,
      })
      const invoice = { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC+1.7" }
      const [collection] = await service.createPaymentCollections([{ amount: 990, currency_code: "twd" }])
      const created = await service.createPaymentSession(collection.id, {
        provider_id: PROVIDER,
        amount: 990,
        currency_code: "twd",
        data: { invoice, lines: SUBSCRIPTION_LINES },
        context: { customer, [SUBSCRIPTION_CONTEXT_KEY]: terms } as never,
      })
      const data = created.data as { transactionId: string; invoiceLines: unknown }
      const tx = await control(sandbox, "GET", `/transactions/${data.transactionId}`)
      expect(tx).toMatchObject({ invoiceInfo: invoice, userName: "Mei Lin", userEmail: customer.email })
      // Invoiced on the cart's lines, as a one-time page is, and kept for the refunds' allowances.
      expect(tx.productDetails).toEqual(SUBSCRIPTION_INVOICED)
      expect(data.invoiceLines).toEqual(SUBSCRIPTION_INVOICED)
    })

    it("a renewal period is invoiced on its checkout's lines: its refund's allowances are shares of them", async () => {
      const attestor = new Attestor(sandbox.defaultMerchant.token)
      const subscriptionTerms = { subscription_id: "twsub_renewal", customer_id: customer.id, kind: "monthly" as const, interval_months: 1, periods: null, start_date: null, amount: 990 }
      const [checkoutCollection] = await service.createPaymentCollections([{ amount: 990, currency_code: "twd" }])
      const checkout = await service.createPaymentSession(checkoutCollection.id, {
        provider_id: PROVIDER,
        amount: 990,
        currency_code: "twd",
        data: { lines: SUBSCRIPTION_LINES },
        context: { customer, [SUBSCRIPTION_CONTEXT_KEY]: sealSubscriptionTerms(attestor, subscriptionTerms) } as never,
      })
      const page = checkout.data as { transactionId: string; checkoutUrl: string; invoiceLines: unknown }
      await payPage(page.checkoutUrl, card(SUCCESS_CARD))
      const paid = await control(sandbox, "GET", `/transactions/${page.transactionId}`)

      // The renewal workflow's session for a paid period (here the page's own transaction stands in for it).
      const renewal = sealRenewalTerms(attestor, {
        subscription_id: "twsub_renewal",
        kind: "monthly",
        transaction_id: page.transactionId,
        period: 2,
        amount: 990,
        custom_id: checkout.id,
        transaction_hid: paid.transactionHid,
        status: paid.status,
        paid_at: paid.paidAt ?? null,
        payment_method: "card",
        payment_info: null,
      })
      const [collection] = await service.createPaymentCollections([{ amount: 990, currency_code: "twd" }])
      const session = await service.createPaymentSession(collection.id, {
        provider_id: PROVIDER,
        amount: 990,
        currency_code: "twd",
        data: { lines: renewalLines(page.invoiceLines) },
        context: { [RENEWAL_CONTEXT_KEY]: renewal } as never,
      })
      expect((session.data as { invoiceLines?: unknown }).invoiceLines).toEqual(SUBSCRIPTION_INVOICED)
      const payment = await service.authorizePaymentSession(session.id, {})
      if (!payment) {
        throw new Error("a paid period must authorize its renewal session")
      }
      await service.refundPayment({ payment_id: payment.id, amount: 500 })
      const refunded = await control(sandbox, "GET", `/transactions/${page.transactionId}`)
      // 800 and 190 of 990: 404 and the rest, never one "Order" line.
      expect(refunded.refund.allowance).toEqual([
        { productionCode: "TEA-1", description: "Oolong tea", quantity: 1, unit: "item", unitPrice: 404 },
        { productionCode: "SHIPPING", description: "Delivery", quantity: 1, unit: "item", unitPrice: 96 },
      ])
    })

    it("a saved-card session: only a customer's own mirrored card, its public facts only, nothing at the service until the charge", async () => {
      const holder = { id: "acchld_1", external_id: "cus_1", data: { tw_saved_cards: [{ id: "twcard_mine", last4: "4242", card_label: null, bound_at: null, created_at: null }] } }
      const open = async (context: Record<string, unknown>, savedCardId = "twcard_mine") => {
        const [collection] = await service.createPaymentCollections([{ amount: 750, currency_code: "twd" }])
        return service.createPaymentSession(collection.id, { provider_id: PROVIDER, amount: 750, currency_code: "twd", data: { savedCardId }, context: context as never })
      }
      await expect(open({})).rejects.toThrow(/needs a logged-in customer/)
      await expect(open({ customer })).rejects.toThrow(/needs a logged-in customer/)
      await expect(open({ customer, account_holder: holder }, "twcard_theirs")).rejects.toThrow("Saved card twcard_theirs is not an active saved card of this customer.")

      const created = await open({ customer, account_holder: holder })
      expect(created.status).toBe("pending")
      expect(created.data).toEqual({ savedCardId: "twcard_mine", session_id: created.id, savedCard: { id: "twcard_mine", last4: "4242" }, amount: 750 })
      expect(await transactionCount()).toBe(0)
      // Core's authorization without the store's charge (a completion that skipped the store API) is refused.
      await expect(service.authorizePaymentSession(created.id, {})).rejects.toThrow(/saved card was not charged/)
      expect(await transactionCount()).toBe(0)
    })
  },
})
