import type { HostedCheckoutClient } from "../../../lib/hosted"
import { renewalLines } from "../invoice-details"
import { parseHostedCheckoutOptions } from "../options"
import { tokenSubscriptionBody } from "../saved-card-charge-data"
import { openSubscriptionCheckout } from "../sessions/subscription-session"
import type { SubscriptionTerms } from "../subscription-terms"

/**
 * With e-invoices on, a subscription is invoiced on the cart's lines, as a
 * one-time page is (docs/providers.md, "E-invoices"): its page (monthly or
 * scheduled), its saved-card subscription, and every renewal period.
 */
const options = parseHostedCheckoutOptions({
  apiToken: "sandbox-hosted-token-demo-shop-0001",
  merchantId: "demo-shop",
  apiBaseUrl: "http://127.0.0.1:4010/hosted-api",
  checkoutHost: "http://127.0.0.1:4010",
  storefrontUrl: "http://localhost:8000",
  einvoice: true,
})
const productLine = (amount: number) => ({ productionCode: "ORDER", description: "Order", quantity: 1, unit: "order", unitPrice: amount })
const customer = { id: "cus_1", email: "lin@example.test", first_name: "Mei", last_name: "Lin" }
/** Two teas and a delivery: 1200 TWD. */
const lines = [
  { code: "TEA-1", description: "Oolong tea", quantity: 2, amount: 1000 },
  { code: "SHIPPING", description: "Delivery", quantity: 1, amount: 200 },
]
const invoiced = [
  { productionCode: "TEA-1", description: "Oolong tea", quantity: 2, unit: "item", unitPrice: 500 },
  { productionCode: "SHIPPING", description: "Delivery", quantity: 1, unit: "item", unitPrice: 200 },
]
const terms = (kind: "monthly" | "scheduled"): SubscriptionTerms => ({
  subscription_id: "twsub_1",
  customer_id: "cus_1",
  kind,
  interval_months: kind === "monthly" ? 1 : 2,
  periods: null,
  start_date: null,
  amount: 1200,
})

function fakeClient() {
  const bodies: Array<{ productDetails: unknown }> = []
  const page = { id: "tx_page", transactionHid: "P1", page: { url: "http://127.0.0.1:4010/checkout/x", expiresAt: Date.now() + 300_000 } }
  const client = {
    checkouts: {
      createSubscription: async (body: { productDetails: unknown }) => (bodies.push(body), page),
      createSchedule: async (body: { productDetails: unknown }) => (bodies.push(body), { ...page, subscriptionHid: "S1" }),
    },
    transactions: { retrieve: async () => ({ transactionHid: "P1" }) },
  }
  // Only the calls a subscription checkout makes.
  const fake: HostedCheckoutClient = client as never
  return { bodies, client: fake }
}

describe("subscriptions are invoiced on the cart's lines", () => {
  it.each(["monthly", "scheduled"] as const)("a %s page sends the cart's lines and says which lines it was invoiced on", async (kind) => {
    const { bodies, client } = fakeClient()
    const opened = await openSubscriptionCheckout(
      { client, options, productLine },
      { sessionId: "payses_1", amount: 1200, terms: terms(kind), customer: customer as never, returnPath: undefined, invoice: undefined, lines }
    )
    expect(bodies[0].productDetails).toEqual(invoiced)
    expect(opened.invoiceLines).toEqual(invoiced)
  })

  it("without e-invoices, a page sends the one product line and keeps no invoice lines", async () => {
    const { bodies, client } = fakeClient()
    const opened = await openSubscriptionCheckout(
      { client, options: { ...options, einvoice: false }, productLine },
      { sessionId: "payses_1", amount: 1200, terms: terms("monthly"), customer: customer as never, returnPath: undefined, invoice: undefined, lines }
    )
    expect(bodies[0].productDetails).toEqual([productLine(1200)])
    expect(opened.invoiceLines).toBeUndefined()
  })

  it("a saved card's subscription sends the cart's lines", () => {
    const body = tokenSubscriptionBody({ options, productLine, sessionId: "payses_1", amount: 1200, data: { lines }, customer }, terms("monthly"), false)
    expect(body.productDetails).toEqual(invoiced)
  })

  it("lines that cannot make the amount give the one product line, as for one-time pages", async () => {
    const { bodies, client } = fakeClient()
    await openSubscriptionCheckout(
      { client, options, productLine },
      { sessionId: "payses_1", amount: 1500, terms: { ...terms("monthly"), amount: 1500 }, customer: customer as never, returnPath: undefined, invoice: undefined, lines }
    )
    expect(bodies[0].productDetails).toEqual([productLine(1500)])
  })
})

describe("a renewal period is invoiced on the lines of its subscription's checkout", () => {
  it("gives the invoiced lines back as the session's lines, which make the same invoice lines again", () => {
    expect(renewalLines(invoiced)).toEqual([
      { code: "TEA-1", description: "Oolong tea", quantity: 2, amount: 1000 },
      { code: "SHIPPING", description: "Delivery", quantity: 1, amount: 200 },
    ])
  })

  it("has no lines for a checkout invoiced before lines were kept, or unreadable ones", () => {
    expect(renewalLines(undefined)).toBeUndefined()
    expect(renewalLines([])).toBeUndefined()
    expect(renewalLines([{ productionCode: "X", quantity: "2" }])).toBeUndefined()
  })
})
