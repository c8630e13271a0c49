import { mockLogger } from "./mock-logger"
import { createMockService, SECRET_KEY } from "../../../lib/embedded/test/mock-service"
import { mockApi, ok, TRANSACTION } from "../../../lib/hosted/test/mock-api"
import { EmbeddedCardApi } from "../../embedded-card/embedded-card-api"
import { parseEmbeddedCardOptions } from "../../embedded-card/options"
import { HostedCheckoutApi } from "../../hosted-checkout/hosted-checkout-api"
import { parseHostedCheckoutOptions } from "../../hosted-checkout/options"

/** The two providers' lists of their own payments (the job's sweep) and what the store's walk re-reads. */

const NOW = Date.parse("2026-11-21T16:40:00Z")
const MIN = 60_000
const logger = mockLogger()

function hostedApi() {
  const mock = mockApi()
  const options = parseHostedCheckoutOptions({
    apiToken: "tok_test_7Hq2Zp9LmX4vR8sK",
    merchantId: "tea-house",
    apiBaseUrl: "https://api.pay.test/api",
    checkoutHost: "https://tea-house.pay.test",
    storefrontUrl: "https://shop.test",
  })
  // The API over the mocked client: everything else as the pipeline builds it.
  const api = Object.assign(new HostedCheckoutApi(options, logger), { client: mock.client })
  return { api, mock }
}

function embeddedApi() {
  const mock = createMockService()
  const options = parseEmbeddedCardOptions({
    secretKey: SECRET_KEY,
    publishableKey: "pk_" + "b".repeat(24),
    webhookSecrets: "whsec_" + "c".repeat(48),
    apiBaseUrl: "https://embed.test",
    sdkUrl: "https://js.pay.test/v1.4.0/twpay.js",
    storefrontUrl: "https://shop.test",
  })
  const api = Object.assign(new EmbeddedCardApi(options, logger), { client: mock.client })
  return { api, mock }
}

const tx = (n: number, changes: Record<string, unknown> = {}) => ({
  ...TRANSACTION,
  id: `Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Ws${n}`,
  transactionId: `Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Ws${n}`,
  transactionHid: `P202611220000000${n}`,
  ...changes,
})

describe("hosted-checkout: GET /transactions as the sweep reads it", () => {
  it("reads the page at the saved marker and hands on the service's next marker", async () => {
    const { api, mock } = hostedApi()
    mock.reply("GET", "/transactions?page=m1", ok({ transactions: [tx(1), tx(2, { status: "initiated", createdAt: "2026-11-21T16:30:00.000Z" })], page: "m2" }))
    const page = await api.listPayments("m1", NOW - 48 * 60 * MIN, NOW)
    expect(page.at).toBe("m1")
    expect(page.next).toBe("m2")
    expect(page.payments.map((p) => [p.observation.serviceId, p.holdsMoney, p.open])).toEqual([
      [tx(1).id, true, false],
      // Its page (5 minutes) and 3-D Secure's grace are not over yet.
      [tx(2).id, false, true],
    ])
    expect(page.payments[0].createdAt).toBe(Date.parse(TRANSACTION.createdAt))
    await mock.close()
  })

  it("starts at the first page without a marker; the last page has none to hand on", async () => {
    const { api, mock } = hostedApi()
    mock.reply("GET", "/transactions", ok({ transactions: [], page: null }))
    await expect(api.listPayments(undefined, 0, NOW)).resolves.toEqual({ payments: [], at: undefined, next: undefined })
    expect(mock.requests.map((r) => r.path)).toEqual(["/api/transactions"])
    await mock.close()
  })

  it("counts refunded money, another merchant's and foreign currencies out; an old page and an unpaid code past its deadline are closed", async () => {
    const { api, mock } = hostedApi()
    const transactions = [
      tx(1, { refundAmount: 1200, status: "refunded" }),
      tx(2, { merchantId: "other-shop" }),
      tx(3, { currency: "usd" }),
      tx(4, { status: "initiated", createdAt: "2026-11-21T15:00:00.000Z" }),
      tx(5, { status: "charging", paymentMethod: "cvs", paymentInfo: { cvsName: "7-ELEVEN", code: "LLL2611220001", expiredAt: "2026-11-19T16:00:00.000Z" } }),
      tx(6, { status: "charging", paymentMethod: "cvs", paymentInfo: { cvsName: "7-ELEVEN", code: "LLL2611220001", expiredAt: "2026-11-23T16:00:00.000Z" } }),
    ]
    mock.reply("GET", "/transactions", ok({ transactions, page: null }))
    const page = await api.listPayments(undefined, 0, NOW)
    expect(page.payments.map((p) => [p.observation.status, p.holdsMoney, p.open])).toEqual([
      ["refunded", false, false],
      ["initiated", false, false],
      ["charging", false, false],
      ["charging", false, true],
    ])
    await mock.close()
  })
})

describe("embedded-card: GET /v1/payment-intents as the sweep reads it", () => {
  const intent = (id: string, created: number, changes: Record<string, unknown> = {}) => ({
    id,
    status: "succeeded",
    amount: 800,
    currency: "TWD",
    orderId: "cart_1",
    returnUrl: "https://shop.test/return",
    metadata: { session_id: `payses_${id}` },
    amountRefundable: 800,
    created,
    ...changes,
  })
  const since = NOW - 48 * 60 * MIN
  const sinceSeconds = Math.floor(since / 1000)

  it("starts at the window, 100 newest first, and continues below the oldest second it saw", async () => {
    const { api, mock } = embeddedApi()
    const t = Math.floor(NOW / 1000)
    mock.on("GET", "/v1/payment-intents", { status: 200, body: { data: { items: [intent("pi_3", t - 10), intent("pi_2", t - 20)], hasMore: true }, requestId: "r1" } })
    const page = await api.listPayments(undefined, since, NOW)
    expect(mock.requests[0].query).toEqual({ createdGte: String(sinceSeconds), limit: "100" })
    expect(page).toMatchObject({ at: String(t - 20), next: `${sinceSeconds}..${t - 20}` })
    expect(page.payments.map((p) => [p.observation.serviceId, p.holdsMoney, p.createdAt])).toEqual([
      ["pi_3", true, (t - 10) * 1000],
      ["pi_2", true, (t - 20) * 1000],
    ])

    mock.on("GET", "/v1/payment-intents", { status: 200, body: { data: { items: [intent("pi_2", t - 20), intent("pi_1", t - 30)], hasMore: false }, requestId: "r2" } })
    const last = await api.listPayments(page.next, since, NOW)
    expect(mock.requests[1].query).toEqual({ createdGte: String(sinceSeconds), createdLte: String(t - 20), limit: "100" })
    expect(last.next).toBeUndefined()
    await mock.close()
  })

  it("resumes at a saved second, never before the window; a position it cannot read starts at the window", async () => {
    const { api, mock } = embeddedApi()
    const empty = { status: 200, body: { data: { items: [], hasMore: false }, requestId: "r" } }
    mock.on("GET", "/v1/payment-intents", empty, empty, empty)
    const recent = String(sinceSeconds + 500)
    expect(await api.listPayments(recent, since, NOW)).toEqual({ payments: [], at: recent, next: undefined })
    await api.listPayments("12", since, NOW)
    await api.listPayments("bogus", since, NOW)
    expect(mock.requests.map((r) => r.query.createdGte)).toEqual([recent, String(sinceSeconds), String(sinceSeconds)])
    await mock.close()
  })

  it("steps past a second holding a whole page, and says so", async () => {
    const { api, mock } = embeddedApi()
    const t = sinceSeconds + 1000
    mock.on("GET", "/v1/payment-intents", { status: 200, body: { data: { items: [intent("pi_a", t), intent("pi_b", t)], hasMore: true }, requestId: "r" } })
    const page = await api.listPayments(`${sinceSeconds}..${t}`, since, NOW)
    expect(page.next).toBe(`${sinceSeconds}..${t - 1}`)
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining(`created in the second ${t}`))
    await mock.close()
  })

  it("money refunded in full is no longer held; processing and recent unpaid intents are open", async () => {
    const { api, mock } = embeddedApi()
    const t = Math.floor(NOW / 1000)
    const items = [
      intent("pi_r", t - 60, { amountRefundable: 0 }),
      intent("pi_p", t - 3000, { status: "processing" }),
      intent("pi_n", t - 600, { status: "requiresPaymentMethod" }),
      intent("pi_o", t - 7200, { status: "requiresPaymentMethod" }),
      intent("pi_f", t - 60, { status: "failed" }),
    ]
    mock.on("GET", "/v1/payment-intents", { status: 200, body: { data: { items, hasMore: false }, requestId: "r" } })
    const page = await api.listPayments(undefined, since, NOW)
    expect(page.payments.map((p) => [p.observation.serviceId, p.holdsMoney, p.open])).toEqual([
      ["pi_r", false, false],
      ["pi_p", false, true],
      ["pi_n", false, true],
      ["pi_o", false, false],
      ["pi_f", false, false],
    ])
    await mock.close()
  })
})

describe("what the store's walk re-reads (reconcilable)", () => {
  const createdAt = new Date(NOW - 10 * MIN)
  const future = new Date(NOW + 60 * MIN).toISOString()

  it.each(["failed", "cancelled", "refunding", "refunded", "refundedPostPayout"])("hosted: a session last read %s is final, however recent", (status) => {
    const { api } = hostedApi()
    expect(api.reconcilable({ status: "pending", data: { transactionId: "t", status, expiresAt: future }, createdAt }, NOW)).toBe(false)
    expect(api.reconcilable({ status: "pending_authorization", data: { transactionId: "t", status }, createdAt }, NOW)).toBe(false)
  })

  it("hosted: paid, open and awaiting sessions are still read", () => {
    const { api } = hostedApi()
    expect(api.reconcilable({ status: "pending", data: { transactionId: "t", status: "charged" }, createdAt }, NOW)).toBe(true)
    expect(api.reconcilable({ status: "pending", data: { transactionId: "t", status: "initiated", expiresAt: future }, createdAt }, NOW)).toBe(true)
    expect(api.reconcilable({ status: "pending_authorization", data: { transactionId: "t", status: "charging" }, createdAt }, NOW)).toBe(true)
  })

  it.each(["failed", "canceled"])("embedded: a session last read %s is final", (status) => {
    const { api } = embeddedApi()
    expect(api.reconcilable({ status: "pending", data: { paymentIntentId: "pi", status }, createdAt }, NOW)).toBe(false)
    expect(api.reconcilable({ status: "pending_authorization", data: { paymentIntentId: "pi", status }, createdAt }, NOW)).toBe(false)
  })

  it("embedded: paid, processing and recent sessions are still read", () => {
    const { api } = embeddedApi()
    expect(api.reconcilable({ status: "pending", data: { paymentIntentId: "pi", status: "succeeded" }, createdAt: new Date(0) }, NOW)).toBe(true)
    expect(api.reconcilable({ status: "pending", data: { paymentIntentId: "pi", status: "processing" }, createdAt: new Date(0) }, NOW)).toBe(true)
    expect(api.reconcilable({ status: "pending", data: { paymentIntentId: "pi", status: "requiresPaymentMethod" }, createdAt }, NOW)).toBe(true)
  })
})
