import { checkoutBody, startTestSandbox, type TestSandbox } from "./helpers"

/** Spec 2.2, 2.4, 4.7 to 4.9, 4.11, 4.13: identifiers, transaction records, lists and their page marker. */

// 01:30 on 1 April in Taipei, still 31 March in UTC: ids carry the Taipei date.
const NOW = new Date("2025-03-31T17:30:00Z")

describe("queries", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox({ now: NOW })
  })
  afterAll(() => sb.close())

  it("issues ids in the formats of 2.2, dated in Taipei", async () => {
    const { id, transactionHid } = await sb.checkout()
    expect(id).toMatch(/^[0-9A-Za-z]{27}$/)
    expect(transactionHid).toMatch(/^P20250401[0-9A-Z]{8}$/)
    expect(transactionHid).toHaveLength(17)
    const schedule = await sb.ok("POST", "/checkout-schedule", checkoutBody())
    expect(schedule.subscriptionHid).toMatch(/^S20250401[0-9A-Z]{8}$/)
    expect(schedule.id).toMatch(/^[0-9A-Za-z]{27}$/)
  })

  it("GET /transactions/{id} by id has the 2.4 fields; by P number lacks productDetails and numberOfPeriods", async () => {
    const { id, transactionHid } = await sb.ok("POST", "/checkout-subscription", checkoutBody({ numberOfPeriods: 6, customId: "c-1", userId: "member-7" })) as { id: string; transactionHid: string }
    const byId = await sb.transaction(id)
    expect(byId).toMatchObject({
      id,
      transactionId: id,
      transactionHid,
      merchantId: "demo-shop",
      orderId: "order-1",
      status: "initiated",
      amount: 300,
      currency: "TWD",
      customId: "c-1",
      userId: "member-7",
      numberOfPeriods: 6,
      productDetails: [expect.objectContaining({ productionCode: "TEA-01" })],
    })
    expect(byId.createdAt).toBe(new Date(Date.parse(byId.createdAt as string)).toISOString())
    const byHid = await sb.transaction(transactionHid)
    expect(byHid.id).toBe(id)
    expect(byHid).not.toHaveProperty("productDetails")
    expect(byHid).not.toHaveProperty("numberOfPeriods")
  })

  it("an unknown id, or another domain's transaction, is V0001", async () => {
    const other = await sb.createMerchant({ merchantId: "query-other" })
    const { id, transactionHid } = (await sb.ok("POST", "/checkout", checkoutBody({ merchantId: "query-other" }), other.token)) as {
      id: string
      transactionHid: string
    }
    for (const key of [id, transactionHid, "AAAAAAAAAAAAAAAAAAAAAAAAAAA", "P20250401ZZZZZZZZ"]) {
      const res = await sb.api("GET", `/transactions/${key}`)
      expect(res.status).toBe(400)
      expect(res.json.code).toBe("V0001")
    }
    expect((await sb.api("GET", `/transactions/${id}`, undefined, { token: other.token })).status).toBe(200)
  })

  it("GET /transactions pages 50 at a time with an opaque marker; null after the last page", async () => {
    const lister = await sb.createMerchant({ merchantId: "list-shop" })
    const created: string[] = []
    for (let i = 0; i < 112; i++) {
      const data = await sb.ok("POST", "/checkout", checkoutBody({ merchantId: "list-shop", orderId: `o-${i}` }), lister.token)
      created.push(data.id as string)
    }
    const seen: string[] = []
    let page: string | null = null
    const sizes: number[] = []
    do {
      const path: string = page === null ? "/transactions" : `/transactions?page=${encodeURIComponent(page)}`
      const data = (await sb.ok("GET", path, undefined, lister.token)) as { transactions: { id: string }[]; page: string | null }
      expect(Object.keys(data).sort()).toEqual(["page", "transactions"])
      sizes.push(data.transactions.length)
      seen.push(...data.transactions.map((t) => t.id))
      page = data.page
      if (page !== null) {
        expect(typeof page).toBe("string")
      }
    } while (page !== null)
    expect(sizes).toEqual([50, 50, 12])
    expect(seen).toEqual(created)
  })

  it("an exactly full last page has a null marker, and a small list one page", async () => {
    const m = await sb.createMerchant({ merchantId: "fifty-shop" })
    for (let i = 0; i < 50; i++) {
      await sb.ok("POST", "/checkout", checkoutBody({ merchantId: "fifty-shop" }), m.token)
    }
    const data = await sb.ok("GET", "/transactions", undefined, m.token)
    expect((data.transactions as unknown[]).length).toBe(50)
    expect(data.page).toBeNull()
  })

  it("an invalid page marker is 500 F0001, including another merchant's or another list's marker", async () => {
    const m = await sb.createMerchant({ merchantId: "marker-shop" })
    for (let i = 0; i < 51; i++) {
      await sb.ok("POST", "/checkout", checkoutBody({ merchantId: "marker-shop" }), m.token)
      await sb.ok("POST", "/checkout-schedule", checkoutBody({ merchantId: "marker-shop" }), m.token)
    }
    const marker = (await sb.ok("GET", "/transactions", undefined, m.token)).page as string
    const subMarker = (await sb.ok("GET", "/subscriptions", undefined, m.token)).page as string
    expect(marker).toEqual(expect.any(String))
    expect(subMarker).toEqual(expect.any(String))
    for (const [path, token] of [
      ["/transactions?page=not-a-marker", m.token],
      ["/transactions?page=%7B%7D", m.token],
      [`/transactions?page=${marker}`, sb.token],
      [`/transactions?page=${subMarker}`, m.token],
      [`/subscriptions?page=${marker}`, m.token],
      ["/subscriptions?page=", m.token],
    ]) {
      const res = await sb.api("GET", path, undefined, { token })
      expect(res.status).toBe(500)
      expect(res.json).toEqual({ code: "F0001", data: {}, message: expect.any(String) })
    }
    const second = await sb.ok("GET", `/subscriptions?page=${subMarker}`, undefined, m.token)
    expect((second.subscriptions as unknown[]).length).toBe(1)
    expect(second.page).toBeNull()
  })

  it("GET /order/{orderId}/transactions returns every transaction of that order only", async () => {
    const a = await sb.checkout({ orderId: "order/ä 42" })
    const b = await sb.checkout({ orderId: "order/ä 42" })
    await sb.checkout({ orderId: "order-other" })
    await sb.payCard(`/checkout/${b.id}`, "4000000000000051")
    const data = await sb.ok("GET", `/order/${encodeURIComponent("order/ä 42")}/transactions`)
    expect(Object.keys(data)).toEqual(["transactions"])
    const list = data.transactions as { id: string; status: string }[]
    expect(list.map((t) => t.id)).toEqual([a.id, b.id])
    expect(list.map((t) => t.status)).toEqual(["initiated", "failed"])
    expect((await sb.ok("GET", "/order/never-used/transactions")).transactions).toEqual([])
  })

  it("GET /subscriptions/{id} by S number; unknown or internal ids are V0001", async () => {
    const { id, subscriptionHid } = (await sb.ok("POST", "/checkout-schedule", checkoutBody({ numberOfPeriods: 4, paymentInterval: 3 }))) as {
      id: string
      subscriptionHid: string
    }
    const sub = await sb.ok("GET", `/subscriptions/${subscriptionHid}`)
    expect(sub).toMatchObject({ id: subscriptionHid, status: "pending", period: 0, paymentInterval: 3, numberOfPeriods: 4, amount: 300 })
    expect(sub.createdAt).toEqual(expect.any(String))
    expect(sub).not.toHaveProperty("startedAt")
    expect(sub).not.toHaveProperty("cancelledAt")
    for (const key of [id, "S20250401ZZZZZZZZ"]) {
      expect((await sb.api("GET", `/subscriptions/${key}`)).json.code).toBe("V0001")
    }
    const list = await sb.ok("GET", "/subscriptions")
    expect((list.subscriptions as { id: string }[]).map((s) => s.id)).toContain(subscriptionHid)
    expect(list.page).toBeNull()
  })
})
