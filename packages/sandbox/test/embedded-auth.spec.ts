import { type EmbeddedSandbox, expectError, startEmbeddedSandbox, SUCCESS_CARD } from "./embedded-helpers"

/** Spec 5 and 7: envelopes, request ids, keys and every AUTH_INVALID_KEY cause, domains and origins. */

describe("embedded API: envelope, keys and origins", () => {
  let sb: EmbeddedSandbox

  beforeAll(async () => {
    sb = await startEmbeddedSandbox({ specLimits: true })
  })
  afterAll(() => sb.close())

  describe("envelope", () => {
    it("wraps success as { data, requestId } with the same id in X-Request-Id, a new id per request", async () => {
      const a = await sb.api("GET", "/v1/payment-intents")
      const b = await sb.api("GET", "/v1/payment-intents")
      expect(a.status).toBe(200)
      expect(Object.keys(a.json).sort()).toEqual(["data", "requestId"])
      expect(a.json.requestId).toMatch(/^req_[0-9A-Za-z]{24}$/)
      expect(a.headers.get("x-request-id")).toBe(a.json.requestId)
      expect(b.json.requestId).not.toBe(a.json.requestId)
      expect(a.json.data).toEqual({ items: [], hasMore: false })
    })

    it("answers unknown paths and wrong methods in the error envelope", async () => {
      expectError(await sb.api("GET", "/v1/nothing-here"), 404, "NOT_FOUND", null)
      const wrong = await sb.api("PUT", "/v1/payment-intents")
      expectError(wrong, 405, "METHOD_NOT_ALLOWED")
      expect(wrong.headers.get("allow")).toBe("POST, GET")
    })

    it("400 INVALID_REQUEST for a body that is not JSON or not an object", async () => {
      expectError(await sb.api("POST", "/v1/payment-intents", undefined, { rawBody: "{nope" }), 400, "INVALID_REQUEST", null)
      expectError(await sb.api("POST", "/v1/payment-intents", [1, 2]), 400, "INVALID_REQUEST", null)
    })
  })

  describe("keys", () => {
    it("default merchant's documented keys have the spec's formats", () => {
      expect(sb.pk).toBe("pk_sandbox_demo_shop_000001")
      expect(sb.sk).toBe("sk_sandbox_demo_shop_secret_0000001")
      expect(sb.pk).toMatch(/^pk_.{24}$/)
      expect(sb.sk).toMatch(/^sk_.{32}$/)
    })

    const causes: [string, Record<string, string>, RegExp][] = [
      ["no Authorization header", {}, /missing/i],
      ["a Basic header", { authorization: "Basic abc" }, /malformed/i],
      ["Bearer without a key", { authorization: "Bearer " }, /malformed/i],
      ["a key one character short", { authorization: "Bearer sk_sandbox_demo_shop_secret_000000" }, /format/i],
      ["a key of another prefix", { authorization: "Bearer rk_sandbox_demo_shop_secret_0000001" }, /format/i],
      ["an unknown key of the right form", { authorization: `Bearer sk_${"x".repeat(32)}` }, /invalid api key$/i],
    ]
    it.each(causes)("401 AUTH_INVALID_KEY for %s", async (_name, headers, message) => {
      const res = await sb.api("GET", "/v1/payment-intents", undefined, { key: null, headers })
      expectError(res, 401, "AUTH_INVALID_KEY", null)
      expect(res.json.error.message).toMatch(message)
    })

    it("a publishable key on any backend endpoint is 401; on the four SDK endpoints it works", async () => {
      for (const [method, path] of [
        ["POST", "/v1/payment-intents"],
        ["GET", "/v1/payment-intents"],
        ["GET", "/v1/payment-intents/pi_x"],
        ["PATCH", "/v1/payment-intents/pi_x"],
        ["POST", "/v1/payment-intents/pi_x/cancel"],
        ["POST", "/v1/refunds"],
        ["GET", "/v1/refunds"],
        ["GET", "/v1/refunds/re_x"],
        ["POST", "/v1/webhooks"],
        ["GET", "/v1/webhooks"],
        ["GET", "/v1/webhooks/we_x"],
        ["PATCH", "/v1/webhooks/we_x"],
        ["DELETE", "/v1/webhooks/we_x"],
        ["GET", "/v1/webhooks/we_x/logs"],
        ["POST", "/v1/webhooks/we_x/rotate-secret"],
      ]) {
        const res = await sb.api(method, path, method === "GET" || method === "DELETE" ? undefined : {}, { key: sb.pk })
        expectError(res, 401, "AUTH_INVALID_KEY")
        expect(res.json.error.message).toMatch(/publishable key/i)
      }
      const intent = await sb.createIntent()
      const token = await sb.token(SUCCESS_CARD)
      expect(token).toMatch(/^tok_/)
      expect((await sb.api("GET", `/v1/payment-intents/${intent.id}/status?clientSecret=${intent.clientSecret}`, undefined, { key: sb.pk })).status).toBe(200)
      expect((await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token }, { key: sb.pk })).status).toBe(200)
      expectError(await sb.api("POST", "/v1/3ds/simulate", { paymentIntentId: intent.id, outcome: "success" }, { key: sb.pk }), 400, "PAYMENT_INTENT_ALREADY_SUCCEEDED")
    })

    it("merchant not active, online payment service not activated, embed not activated: 401 each, with its own message", async () => {
      const keys = await sb.merchant("flags-shop")
      const check = async (settings: Record<string, unknown>, message: RegExp) => {
        await sb.patchEmbedded(settings, "flags-shop")
        for (const key of [keys.sk, keys.pk]) {
          const res = await sb.api("POST", "/v1/tokens", { card: { number: SUCCESS_CARD, expMonth: 1, expYear: 2040, cvc: "123" } }, { key })
          expectError(res, 401, "AUTH_INVALID_KEY", null)
          expect(res.json.error.message).toMatch(message)
        }
        await sb.patchEmbedded({ embedActive: true, merchantActive: true, paymentServiceActive: true }, "flags-shop")
        expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: keys.sk })).status).toBe(200)
      }
      await check({ merchantActive: false }, /merchant account is not active/i)
      await check({ paymentServiceActive: false }, /online payment service/i)
      await check({ embedActive: false }, /embedded payments are not activated/i)
      // the hosted side sees the same payment-service switch
      await sb.patchEmbedded({ paymentServiceActive: false }, "flags-shop")
      expect((await sb.control("GET", "/merchants/flags-shop")).json.paymentServiceActive).toBe(false)
      await sb.patchEmbedded({ paymentServiceActive: true }, "flags-shop")
    })

    it("a merchant created through the control API starts with embed not activated", async () => {
      await sb.control("POST", "/merchants", { merchantId: "new-shop" })
      const account = (await sb.control("GET", "/merchants/new-shop/embedded")).json
      expect(account).toMatchObject({ embedActive: false, merchantActive: true, paymentServiceActive: true, allowedDomains: [] })
      expect(account.current.publishableKey).toMatch(/^pk_[0-9A-Za-z]{24}$/)
      expect(account.current.secretKey).toMatch(/^sk_[0-9A-Za-z]{32}$/)
      const res = await sb.api("GET", "/v1/payment-intents", undefined, { key: account.current.secretKey })
      expect(res.json.error.message).toMatch(/embedded payments are not activated/i)
      expect((await sb.control("GET", "/merchants/nobody/embedded")).status).toBe(404)
    })

    it("regenerating keys leaves the old pair valid for 24 h on the sandbox clock, then 401", async () => {
      const old = await sb.merchant("regen-shop")
      const fresh = (await sb.control("POST", "/merchants/regen-shop/embedded/keys")).json
      expect(fresh.publishableKey).not.toBe(old.pk)
      expect(fresh.secretKey).toMatch(/^sk_[0-9A-Za-z]{32}$/)
      for (const key of [old.sk, fresh.sk]) {
        expect((await sb.api("GET", "/v1/payment-intents", undefined, { key })).status).toBe(200)
      }
      await sb.advance(24 * 3600 - 5)
      expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: old.sk })).status).toBe(200)
      await sb.advance(5)
      for (const key of [old.sk, old.pk]) {
        const res = await sb.api("POST", "/v1/tokens", {}, { key })
        expectError(res, 401, "AUTH_INVALID_KEY")
        expect(res.json.error.message).toMatch(/expired/i)
      }
      expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: fresh.sk })).status).toBe(200)
    })

    it("revoking is immediate: every key of the merchant, or a single named one", async () => {
      const keys = await sb.merchant("revoke-shop")
      const named = await sb.control("POST", "/merchants/revoke-shop/embedded/keys/revoke", { key: keys.pk })
      expect(named.status).toBe(200)
      const res = await sb.api("POST", "/v1/tokens", {}, { key: keys.pk })
      expectError(res, 401, "AUTH_INVALID_KEY")
      expect(res.json.error.message).toMatch(/revoked/i)
      // the pair goes as one
      expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: keys.sk })).json.error.message).toMatch(/revoked/i)
      const second = (await sb.control("POST", "/merchants/revoke-shop/embedded/keys")).json
      expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: second.secretKey })).status).toBe(200)
      await sb.control("POST", "/merchants/revoke-shop/embedded/keys/revoke", {})
      expect((await sb.api("GET", "/v1/payment-intents", undefined, { key: second.secretKey })).json.error.message).toMatch(/revoked/i)
      expect((await sb.control("POST", "/merchants/revoke-shop/embedded/keys/revoke", { key: "sk_unknown" })).status).toBe(404)
    })

    it("one merchant's key never reaches another merchant's intents (404 as if absent)", async () => {
      const other = await sb.merchant("other-shop")
      const intent = await sb.createIntent()
      expectError(await sb.api("GET", `/v1/payment-intents/${intent.id}`, undefined, { key: other.sk }), 404, "PAYMENT_INTENT_NOT_FOUND")
      const list = await sb.ok("GET", "/v1/payment-intents", undefined, { key: other.sk })
      expect(list.items).toEqual([])
    })
  })

  describe("allowed domains and origins", () => {
    it("returnUrl: https needed except localhost/127.0.0.1; its host must be registered (403 DOMAIN_NOT_REGISTERED)", async () => {
      expect((await sb.createIntent({ returnUrl: "http://127.0.0.1:3000/done?x=1" })).returnUrl).toBe("http://127.0.0.1:3000/done?x=1")
      expect((await sb.createIntent({ returnUrl: "https://LOCALHOST/done" })).status).toBe("created")
      const body = { amount: 100, orderId: "o" }
      expectError(await sb.api("POST", "/v1/payment-intents", { ...body, returnUrl: "http://shop.example/done" }), 400, "INVALID_REQUEST", "returnUrl")
      expectError(await sb.api("POST", "/v1/payment-intents", { ...body, returnUrl: "/relative" }), 400, "INVALID_REQUEST", "returnUrl")
      expectError(await sb.api("POST", "/v1/payment-intents", { ...body, returnUrl: "https://shop.example/done" }), 403, "DOMAIN_NOT_REGISTERED", "returnUrl")
      expectError(await sb.api("POST", "/v1/payment-intents", { ...body, returnUrl: "https://sub.localhost/done" }), 403, "DOMAIN_NOT_REGISTERED", "returnUrl")
    })

    it("a merchant without any allowed domain is 400 MERCHANT_NOT_CONFIGURED", async () => {
      const keys = await sb.merchant("bare-shop", { allowedDomains: [] })
      const res = await sb.api("POST", "/v1/payment-intents", { amount: 100, orderId: "o", returnUrl: "https://localhost/x" }, { key: keys.sk })
      expectError(res, 400, "MERCHANT_NOT_CONFIGURED", null)
    })

    it("SDK calls from an unregistered checkout origin get 403 FORBIDDEN_ORIGIN (Origin header or the frame's header)", async () => {
      const intent = await sb.createIntent()
      const path = `/v1/payment-intents/${intent.id}/status?clientSecret=${intent.clientSecret}`
      const forbidden: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { origin: "http://shop.test" },
        { "twpay-checkout-origin": "https://evil.example" },
        // the frame's own requests carry the sandbox's origin: then its header is the checkout origin
        { origin: sb.url, "twpay-checkout-origin": "https://evil.example" },
      ]
      for (const headers of forbidden) {
        const res = await sb.api("GET", path, undefined, { key: sb.pk, headers })
        expectError(res, 403, "FORBIDDEN_ORIGIN", null)
      }
      const allowed: Record<string, string>[] = [{ origin: "http://localhost:5173" }, { origin: "https://127.0.0.1" }, { "twpay-checkout-origin": "http://127.0.0.1:8080" }, { origin: sb.url }, {}]
      for (const headers of allowed) {
        expect((await sb.api("GET", path, undefined, { key: sb.pk, headers })).status).toBe(200)
      }
      // the secret key is a backend key: no origin rule
      expect((await sb.api("GET", path, undefined, { key: sb.sk, headers: { origin: "https://evil.example" } })).status).toBe(200)
    })

    it("SDK endpoints answer CORS (preflight and actual, errors included); backend endpoints do not", async () => {
      const pre = await fetch(`${sb.url}/v1/confirm`, { method: "OPTIONS", headers: { origin: "http://localhost:3000", "access-control-request-method": "POST" } })
      expect(pre.status).toBe(204)
      expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:3000")
      expect(pre.headers.get("access-control-allow-headers")).toContain("authorization")
      expect(pre.headers.get("access-control-allow-headers")).toContain("idempotency-key")
      const denied = await sb.api("POST", "/v1/tokens", {}, { key: sb.pk, headers: { origin: "https://evil.example" } })
      expect(denied.status).toBe(403)
      expect(denied.headers.get("access-control-allow-origin")).toBe("https://evil.example")
      expect(denied.headers.get("access-control-expose-headers")).toContain("x-request-id")
      const backend = await fetch(`${sb.url}/v1/payment-intents`, { method: "OPTIONS", headers: { origin: "http://localhost:3000" } })
      expect(backend.status).toBe(405)
      expect(backend.headers.get("access-control-allow-origin")).toBeNull()
    })
  })

  it("settings, the start handle and the control view expose the default embedded credentials", async () => {
    const settings = (await sb.control("GET", "/settings")).json
    expect(settings.embedded).toEqual({
      baseUrl: sb.url,
      publishableKey: "pk_sandbox_demo_shop_000001",
      secretKey: "sk_sandbox_demo_shop_secret_0000001",
      sdkUrl: `${sb.url}/sdk/v1.4.0/twpay.js`,
      sdkFloatingUrl: `${sb.url}/sdk/v1/twpay.js`,
      sdkIntegrity: expect.stringMatching(/^sha384-[A-Za-z0-9+/]{64}$/),
      webhookTimeoutMs: 30_000,
    })
    expect(sb.handle.embedded).toEqual(settings.embedded)
    const account = (await sb.control("GET", "/merchants/demo-shop/embedded")).json
    expect(account).toMatchObject({
      embedActive: true,
      allowedDomains: ["localhost", "127.0.0.1"],
      rateLimits: { secretPerMinute: 500, publishablePerMinutePerIp: 30, publishablePerMinutePerKey: 60, firewallPer5MinPerIp: 100, firewallPer5MinPerKey: 600 },
    })
  })
})
