import { checkoutBody, startTestSandbox, type TestSandbox } from "./helpers"

/** Spec 2.1, 5 and 7: envelope, non-envelope answers, authentication, token/domain binding. */
describe("hosted API envelope and authentication", () => {
  let sb: TestSandbox

  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())

  it("wraps success as { code: S0000, data, message: '' } and nothing else", async () => {
    const res = await sb.api("POST", "/checkout", checkoutBody())
    expect(res.status).toBe(200)
    expect(Object.keys(res.json).sort()).toEqual(["code", "data", "message"])
    expect(res.json.code).toBe("S0000")
    expect(res.json.message).toBe("")
    expect(res.headers.get("content-type")).toMatch(/^application\/json/)
    expect(Object.keys(res.json.data!).sort()).toEqual(["id", "transactionHid"])
  })

  it("omits fields without a value instead of sending null", async () => {
    const { id } = await sb.checkout()
    const res = await sb.api("GET", `/transactions/${id}`)
    expect(res.text).not.toContain("null")
    const tx = res.json.data!
    expect(tx.status).toBe("initiated")
    for (const absent of ["paymentMethod", "paymentInfo", "authCode", "customId", "userId", "paidAt", "refundAmount", "numberOfPeriods"]) {
      expect(tx).not.toHaveProperty(absent)
    }
  })

  it("answers an unknown path with 404 and a plain-text body", async () => {
    for (const path of ["/nothing-here", "/transactions/abc/extra", "/checkout/", "/refunds"]) {
      const res = await sb.api("GET", path)
      expect(res.status).toBe(404)
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/)
      expect(res.text).toBe("Not Found")
    }
  })

  it("answers an unsupported method with 405 and a plain-text body", async () => {
    for (const [method, path] of [
      ["GET", "/checkout"],
      ["DELETE", "/transactions/abc"],
      ["POST", "/transactions"],
      ["PATCH", "/subscriptions/S2025010100000000"],
    ]) {
      const res = await sb.api(method, path, method === "GET" ? undefined : {})
      expect(res.status).toBe(405)
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/)
      expect(res.text).toBe("Method Not Allowed")
    }
  })

  // (Trailing whitespace is stripped from header values by HTTP itself, so it cannot be tested.)
  it("requires exactly `Bearer <token>`: anything else is 401 A0001 in the envelope", async () => {
    const token = sb.token
    for (const authorization of [null, `bearer ${token}`, `Bearer  ${token}`, `Bearer\t${token}`, `Basic ${token}`, token, "Bearer wrong-token"]) {
      const res = await sb.api("GET", "/transactions", undefined, { authorization })
      expect(res.status).toBe(401)
      expect(res.json).toEqual({ code: "A0001", data: {}, message: expect.any(String) })
    }
    expect((await sb.api("GET", "/transactions", undefined, { authorization: `Bearer ${token}` })).status).toBe(200)
  })

  it("invalidates a regenerated token at once", async () => {
    const m = await sb.createMerchant({ merchantId: "regen-shop", token: "first-token-0001" })
    expect((await sb.api("GET", "/transactions", undefined, { token: m.token })).status).toBe(200)
    await sb.patchMerchant({ token: "second-token-0002" }, "regen-shop")
    expect((await sb.api("GET", "/transactions", undefined, { token: "first-token-0001" })).json.code).toBe("A0001")
    expect((await sb.api("GET", "/transactions", undefined, { token: "second-token-0002" })).status).toBe(200)
  })

  it("binds a token to one domain: another merchantId in the body is 400 V0001", async () => {
    const other = await sb.createMerchant({ merchantId: "other-shop" })
    const mismatch = await sb.api("POST", "/checkout", checkoutBody({ merchantId: "other-shop" }))
    expect(mismatch.status).toBe(400)
    expect(mismatch.json.code).toBe("V0001")
    expect(mismatch.json.message).toContain("merchantId")
    const crossed = await sb.api("POST", "/checkout", checkoutBody({ merchantId: "demo-shop" }), { token: other.token })
    expect(crossed.json.code).toBe("V0001")
    const own = await sb.api("POST", "/checkout", checkoutBody({ merchantId: "other-shop" }), { token: other.token })
    expect(own.json.code).toBe("S0000")
    // and a transaction is visible only to its own domain
    const created = own.json.data as { id: string }
    expect((await sb.api("GET", `/transactions/${created.id}`)).json.code).toBe("V0001")
  })

  it("blocks production calls from unlisted IPs with 403 and a body of only { message }", async () => {
    const prod = await sb.createMerchant({ merchantId: "prod-shop", production: true, ipAllowlist: ["203.0.113.7"] })
    const blocked = await sb.api("GET", "/transactions", undefined, { token: prod.token })
    expect(blocked.status).toBe(403)
    expect(blocked.json).toEqual({ message: "Forbidden" })
    await sb.patchMerchant({ ipAllowlist: ["203.0.113.7", "127.0.0.1"] }, "prod-shop")
    expect((await sb.api("GET", "/transactions", undefined, { token: prod.token })).status).toBe(200)
    // the test environment (production: false) has no restriction
    await sb.patchMerchant({ production: false, ipAllowlist: ["203.0.113.7"] }, "prod-shop")
    expect((await sb.api("GET", "/transactions", undefined, { token: prod.token })).status).toBe(200)
  })

  it("answers a body that is not JSON with 500 F0001", async () => {
    for (const rawBody of ["{not json", "", "{\"merchantId\": "]) {
      const res = await sb.api("POST", "/checkout", undefined, { rawBody })
      expect(res.status).toBe(500)
      expect(res.json).toEqual({ code: "F0001", data: {}, message: expect.any(String) })
    }
  })

  it("answers JSON that is not an object with V0001", async () => {
    const res = await sb.api("POST", "/checkout", undefined, { rawBody: "[1,2]" })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe("V0001")
  })

  it("adds `detail` only on K0001", async () => {
    await sb.createMerchant({ merchantId: "personal-shop", token: "personal-token-01", riskThreshold: 1000 })
    const rejected = await sb.api("POST", "/checkout", checkoutBody({ merchantId: "personal-shop", amount: 1500, productDetails: [{ productionCode: "A", description: "Big", quantity: 1, unit: "pc", unitPrice: 1500 }] }), { token: "personal-token-01" })
    expect(rejected.status).toBe(400)
    expect(rejected.json.code).toBe("K0001")
    expect(rejected.json.data).toEqual({})
    expect(typeof rejected.json.detail).toBe("string")
    const v0001 = await sb.api("POST", "/checkout", checkoutBody({ amount: 0 }))
    expect(v0001.json).not.toHaveProperty("detail")
    expect(v0001.json).not.toHaveProperty("retryable")
    const allowed = await sb.api("POST", "/checkout", checkoutBody({ merchantId: "personal-shop", amount: 1000, productDetails: [{ productionCode: "A", description: "Ok", quantity: 1, unit: "pc", unitPrice: 1000 }] }), { token: "personal-token-01" })
    expect(allowed.json.code).toBe("S0000")
  })
})
