import { checkoutBody, sortedKeys, startTestSandbox, taipeiAt, type TestSandbox, THREE_DS_CARD } from "./helpers"

/** Spec 4.4 to 4.6 and 6.3: card binding, token charges and token subscriptions. */

const NOW = new Date(taipeiAt("2025-01-15", 10))
const TOKEN_FIELDS = ["purpose", "id", "transactionId", "merchantId", "success", "token", "paymentInfo", "customId", "message"]

describe("card binding and token charges", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox({ now: NOW })
  })
  afterAll(() => sb.close())

  const binding = (body: Record<string, unknown> = {}) =>
    sb.ok("POST", "/checkout-token", { merchantId: "demo-shop", successUrl: "https://shop.test/saved", failureUrl: "https://shop.test/not-saved", ...body }) as Promise<{ id: string }>

  async function tokenNotice(id: string) {
    const notice = (await sb.notifications({ purpose: "token" })).find((n) => n.body.id === id)
    expect(notice).toBeDefined()
    for (const key of Object.keys(notice!.body)) {
      expect(TOKEN_FIELDS).toContain(key)
    }
    return notice!.body
  }

  it("binding delivers the token only in the token notification; the redirect carries none", async () => {
    const { id } = await binding({ customId: "cust-9" })
    const page = await sb.page(`/checkout/subscription/create/${id}`)
    expect(page.html).toContain('<h1 id="title">Save your card</h1>')
    expect(page.html).toContain('name="payerEmail"')
    const res = await sb.payCard(`/checkout/subscription/create/${id}`, "4242424242424242", { payerEmail: "buyer@example.com" })
    expect(res.location).toBe("https://shop.test/saved")
    const body = await tokenNotice(id)
    expect(sortedKeys(body)).toEqual(["customId", "id", "merchantId", "paymentInfo", "purpose", "success", "token", "transactionId"])
    expect(body).toMatchObject({ purpose: "token", id, transactionId: id, merchantId: "demo-shop", success: true, paymentInfo: "4242", customId: "cust-9" })
    expect(body.token).toMatch(/^tok_[0-9A-Za-z]{40}$/)
    expect(res.location).not.toContain(body.token as string)
    // binding creates no transaction
    expect((await sb.api("GET", `/transactions/${id}`)).json.code).toBe("V0001")
  })

  it("asks for the cardholder email unless payerEmail was given", async () => {
    const { id } = await binding()
    const res = await sb.payCard(`/checkout/subscription/create/${id}`)
    expect(res.status).toBe(400)
    expect(res.html).toContain('id="error"')
    const given = await binding({ payerEmail: "known@example.com" })
    expect((await sb.page(`/checkout/subscription/create/${given.id}`)).html).not.toContain('name="payerEmail"')
  })

  it("a declined card: token notification with success false and the reason, failure redirect", async () => {
    const { id } = await binding({ payerEmail: "p@example.com" })
    const res = await sb.payCard(`/checkout/subscription/create/${id}`, "4000000000000044")
    expect(res.location).toBe("https://shop.test/not-saved?payment_error=T0002")
    const body = await tokenNotice(id)
    expect(body).toMatchObject({ success: false, message: "exceeds_credit_limit" })
    expect(body).not.toHaveProperty("token")
  })

  it("an abandoned 3-D Secure binding fails after 10 minutes with 3DS_ABANDONED", async () => {
    const { id } = await binding({ payerEmail: "p@example.com" })
    expect((await sb.payCard(`/checkout/subscription/create/${id}`, THREE_DS_CARD)).location).toBe(`/checkout/3ds/${id}`)
    await sb.advance(600)
    expect(await tokenNotice(id)).toMatchObject({ success: false, message: "3DS_ABANDONED" })
  })

  it("POST /token/transactions charges at once: { id: P number, authCode }, no notification", async () => {
    const token = await sb.bindCard()
    const before = (await sb.notifications()).length
    const data = await sb.ok("POST", "/token/transactions", checkoutBody({ token, orderId: "tok-order-1" }))
    expect(sortedKeys(data)).toEqual(["authCode", "id"])
    expect(data.id).toMatch(/^P20250115[0-9A-Z]{8}$/)
    expect(data.authCode).toMatch(/^\d{6}$/)
    const tx = await sb.transaction(data.id as string)
    expect(tx).toMatchObject({ status: "charged", paymentMethod: "card", paymentInfo: "4242", orderId: "tok-order-1", authCode: data.authCode })
    expect((await sb.notifications()).length).toBe(before)
    // no duplicate protection: the same request charges again
    const again = await sb.ok("POST", "/token/transactions", checkoutBody({ token, orderId: "tok-order-1" }))
    expect(again.id).not.toBe(data.id)
    expect(((await sb.ok("GET", "/order/tok-order-1/transactions")).transactions as unknown[]).length).toBe(2)
  })

  const declines: [string, string, string][] = [
    ["4000000000010019", "T0001", "invalid_card_number"],
    ["4000000000010043", "T0002", "exceeds_credit_limit"],
    ["4000000000010050", "T0003", "payment_refused"],
    ["4000000000010068", "T0004", "duplicate_payment"],
    ["4000000000010076", "T0005", "charge_failed"],
  ]
  it.each(declines)("a token of card %s is declined with %s; the failed transaction is findable by order", async (card, code, failureCode) => {
    const token = await sb.bindCard(card)
    const orderId = `declined-${code}`
    const res = await sb.api("POST", "/token/transactions", checkoutBody({ token, orderId }))
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ code, data: {}, message: failureCode })
    const [tx] = (await sb.ok("GET", `/order/${orderId}/transactions`)).transactions as Record<string, unknown>[]
    expect(tx).toMatchObject({ status: "failed", orderId, paymentMethod: "card" })
    expect((await sb.transaction(tx.transactionHid as string)).status).toBe("failed")
  })

  it("an unknown token, or another domain's token, is V0001", async () => {
    const token = await sb.bindCard()
    const other = await sb.createMerchant({ merchantId: "token-other" })
    const foreign = await sb.api("POST", "/token/transactions", checkoutBody({ merchantId: "token-other", token }), { token: other.token })
    expect(foreign.json).toEqual({ code: "V0001", data: {}, message: "token: unknown card token" })
    expect((await sb.api("POST", "/token/transactions", checkoutBody({ token: "tok_nope" }))).json.code).toBe("V0001")
  })

  it("POST /token/subscriptions without startDate charges period 1 now (no notification); later periods are notified", async () => {
    const token = await sb.bindCard()
    const before = (await sb.notifications({ purpose: "charge" })).length
    const data = await sb.ok("POST", "/token/subscriptions", checkoutBody({ token, numberOfPeriods: 3, orderId: "tsub-1" }))
    expect(sortedKeys(data)).toEqual(["authCode", "subscriptionId", "transactionId"])
    expect(data.subscriptionId).toMatch(/^S\d{8}[0-9A-Z]{8}$/)
    expect(data.transactionId).toMatch(/^[0-9A-Za-z]{27}$/)
    expect(await sb.transaction(data.transactionId as string)).toMatchObject({ status: "charged", numberOfPeriods: 3 })
    expect((await sb.notifications({ purpose: "charge" })).length).toBe(before)
    const sub = await sb.ok("GET", `/subscriptions/${data.subscriptionId}`)
    const today = new Date(await sb.now())
    expect(sub).toMatchObject({ status: "active", period: 1 })
    const next = new Date(sub.nextChargeAt as string)
    // 09:00 Taipei one month on
    expect(next.getUTCHours()).toBe(1)
    expect(next.getUTCMonth()).toBe((today.getUTCMonth() + 1) % 12)
    await sb.setClock(next.toISOString())
    const charges = (await sb.notifications({ purpose: "charge" })).filter((n) => n.body.subscriptionId === data.subscriptionId)
    expect(charges).toHaveLength(1)
    expect(charges[0].body).toMatchObject({ period: 2, status: "charged", orderId: "tsub-1" })
  })

  it("POST /token/subscriptions with startDate only schedules: { subscriptionId }, first charge on that day, notified", async () => {
    const token = await sb.bindCard()
    const now = new Date(await sb.now())
    const start = new Date(now.getTime() + 5 * 86400_000 + 8 * 3600_000)
    const startDate = `${start.getUTCFullYear()}/${String(start.getUTCMonth() + 1).padStart(2, "0")}/${String(start.getUTCDate()).padStart(2, "0")}`
    const data = await sb.ok("POST", "/token/subscriptions", checkoutBody({ token, startDate, paymentInterval: 3 }))
    expect(Object.keys(data)).toEqual(["subscriptionId"])
    const sub = await sb.ok("GET", `/subscriptions/${data.subscriptionId}`)
    expect(sub).toMatchObject({ status: "trialing", period: 0, paymentInterval: 3 })
    await sb.setClock(sub.nextChargeAt as string)
    const [first] = (await sb.notifications({ purpose: "charge" })).filter((n) => n.body.subscriptionId === data.subscriptionId)
    expect(first.body).toMatchObject({ period: 1, status: "charged", scheduleStatus: "active" })
  })

  it("a failed first token-subscription charge answers T000x, leaves a failed transaction and no subscription", async () => {
    const token = await sb.bindCard("4000000000010050")
    const before = ((await sb.ok("GET", "/subscriptions")).subscriptions as unknown[]).length
    const res = await sb.api("POST", "/token/subscriptions", checkoutBody({ token, orderId: "tsub-declined" }))
    expect(res.status).toBe(400)
    expect(res.json.code).toBe("T0003")
    const [tx] = (await sb.ok("GET", "/order/tsub-declined/transactions")).transactions as Record<string, unknown>[]
    expect(tx.status).toBe("failed")
    expect(((await sb.ok("GET", "/subscriptions")).subscriptions as unknown[]).length).toBe(before)
  })
})
