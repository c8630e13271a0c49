import { checkoutBody, sortedKeys, startTestSandbox, type TestSandbox } from "./helpers"

/** API fault injection: 5xx, held or dropped responses (time-outs), 409 C026 on token charges. */

describe("API faults", () => {
  let sb: TestSandbox

  beforeEach(async () => {
    sb = await startTestSandbox()
  })
  afterEach(() => sb.close())

  const addFault = async (fault: Record<string, unknown>) => {
    const res = await sb.control("POST", "/faults", fault)
    expect(res.status).toBe(201)
    return res.json
  }
  const orderCount = async (orderId: string) => ((await sb.ok("GET", `/order/${orderId}/transactions`)).transactions as unknown[]).length

  it("http500: answers 500 F0001 without acting (default), then passes again", async () => {
    await addFault({ kind: "http500", endpoint: "POST /checkout" })
    const res = await sb.api("POST", "/checkout", checkoutBody({ orderId: "f1" }))
    expect(res.status).toBe(500)
    expect(res.json).toEqual({ code: "F0001", data: {}, message: expect.any(String) })
    expect(await orderCount("f1")).toBe(0)
    expect((await sb.api("POST", "/checkout", checkoutBody({ orderId: "f1" }))).status).toBe(200)
    expect(await orderCount("f1")).toBe(1)
  })

  it("http500 with applied: true acts, then answers 500: the caller must query before resending", async () => {
    await addFault({ kind: "http500", endpoint: "POST /checkout", applied: true })
    expect((await sb.api("POST", "/checkout", checkoutBody({ orderId: "f2" }))).status).toBe(500)
    expect(await orderCount("f2")).toBe(1)
  })

  it("matches by merchant and endpoint, every endpoint when none is given, and counts down", async () => {
    const other = await sb.createMerchant({ merchantId: "fault-other" })
    await addFault({ kind: "http500", merchantId: "fault-other", count: 2 })
    expect((await sb.api("GET", "/transactions")).status).toBe(200)
    expect((await sb.api("GET", "/transactions", undefined, { token: other.token })).status).toBe(500)
    expect((await sb.api("GET", "/subscriptions", undefined, { token: other.token })).status).toBe(500)
    expect((await sb.api("GET", "/transactions", undefined, { token: other.token })).status).toBe(200)
    await addFault({ kind: "http500", endpoint: "GET /transactions/{id}" })
    expect((await sb.api("GET", "/transactions")).status).toBe(200)
    const { id } = await sb.checkout()
    expect((await sb.api("GET", `/transactions/${id}`)).status).toBe(500)
    expect((await sb.api("GET", `/transactions/${id}`)).status).toBe(200)
  })

  it("timeout: holds the answer past the client's time-out; the request was carried out", async () => {
    await addFault({ kind: "timeout", endpoint: "POST /checkout", holdMs: 600 })
    const call = sb.api("POST", "/checkout", checkoutBody({ orderId: "t1" }), { signal: AbortSignal.timeout(150) })
    await expect(call).rejects.toThrow()
    expect(await orderCount("t1")).toBe(1)
  })

  it("timeout with then: answer sends the real answer late", async () => {
    await addFault({ kind: "timeout", endpoint: "POST /checkout", holdMs: 300 })
    const started = Date.now()
    const res = await sb.api("POST", "/checkout", checkoutBody())
    expect(Date.now() - started).toBeGreaterThanOrEqual(280)
    expect(res.json.code).toBe("S0000")
  })

  it("timeout with then: drop closes the connection without an answer", async () => {
    await addFault({ kind: "timeout", endpoint: "POST /checkout", holdMs: 100, then: "drop" })
    await expect(sb.api("POST", "/checkout", checkoutBody({ orderId: "t3" }))).rejects.toThrow()
    expect(await orderCount("t3")).toBe(1)
  })

  it("timeout with applied: false does nothing behind the silence", async () => {
    await addFault({ kind: "timeout", endpoint: "POST /checkout", holdMs: 100, then: "drop", applied: false })
    await expect(sb.api("POST", "/checkout", checkoutBody({ orderId: "t4" }))).rejects.toThrow()
    expect(await orderCount("t4")).toBe(0)
  })

  it("closing the sandbox releases held requests at once", async () => {
    await addFault({ kind: "timeout", holdMs: 60_000 })
    const pending = sb.api("GET", "/transactions").catch((err: unknown) => err)
    await new Promise((r) => setTimeout(r, 50))
    const started = Date.now()
    await sb.close()
    expect(Date.now() - started).toBeLessThan(2_000)
    // the held request ends without an answer (fetch rejects; its error class comes from another realm)
    const outcome = (await pending) as { message?: string; status?: number }
    expect(outcome.status).toBeUndefined()
    expect(outcome.message).toEqual(expect.any(String))
  })

  describe("c026", () => {
    it("POST /token/transactions: 409 C026 with retryable: false; by default the charge happened", async () => {
      const token = await sb.bindCard()
      await addFault({ kind: "c026", endpoint: "POST /token/transactions" })
      const res = await sb.api("POST", "/token/transactions", checkoutBody({ token, orderId: "c1" }))
      expect(res.status).toBe(409)
      expect(sortedKeys(res.json)).toEqual(["code", "data", "message", "retryable"])
      expect(res.json).toMatchObject({ code: "C026", data: {}, retryable: false })
      const [tx] = (await sb.ok("GET", "/order/c1/transactions")).transactions as { status: string }[]
      expect(tx.status).toBe("charged")
    })

    it("with applied: false nothing was charged", async () => {
      const token = await sb.bindCard()
      await addFault({ kind: "c026", endpoint: "POST /token/transactions", applied: false })
      expect((await sb.api("POST", "/token/transactions", checkoutBody({ token, orderId: "c2" }))).json.code).toBe("C026")
      expect(await orderCount("c2")).toBe(0)
    })

    it("POST /token/subscriptions: the first period's result is unknown; applied, the subscription exists", async () => {
      const token = await sb.bindCard()
      await addFault({ kind: "c026" })
      const before = ((await sb.ok("GET", "/subscriptions")).subscriptions as unknown[]).length
      const res = await sb.api("POST", "/token/subscriptions", checkoutBody({ token, orderId: "c3" }))
      expect(res.status).toBe(409)
      expect(res.json.retryable).toBe(false)
      expect(((await sb.ok("GET", "/subscriptions")).subscriptions as unknown[]).length).toBe(before + 1)
      expect(await orderCount("c3")).toBe(1)
    })

    it("is not used up by a parameter error and never hits other endpoints", async () => {
      const token = await sb.bindCard()
      await addFault({ kind: "c026" })
      expect((await sb.api("POST", "/checkout", checkoutBody())).status).toBe(200)
      expect((await sb.api("POST", "/token/transactions", checkoutBody({ token, amount: 0 }))).json.code).toBe("V0001")
      expect((await sb.api("POST", "/token/transactions", checkoutBody({ token }))).json.code).toBe("C026")
      expect((await sb.api("POST", "/token/transactions", checkoutBody({ token }))).json.code).toBe("S0000")
    })
  })

  it("refuses fault definitions that could never match", async () => {
    expect((await sb.control("POST", "/faults", { kind: "http500", endpoint: "POST /checkouts" })).status).toBe(400)
    expect((await sb.control("POST", "/faults", { kind: "c026", endpoint: "POST /checkout" })).status).toBe(400)
    expect((await sb.control("POST", "/faults", { kind: "explode" })).status).toBe(400)
    expect((await sb.control("POST", "/faults", { kind: "delay" })).status).toBe(400)
    expect((await sb.control("GET", "/faults")).json.faults).toEqual([])
  })
})
