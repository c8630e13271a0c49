import { DECLINE_CARDS, type EmbeddedSandbox, expectError, startEmbeddedSandbox, SUCCESS_CARD } from "./embedded-helpers"

/** Spec 4 and 8: Idempotency-Key on create intent, create refund and SDK confirm; API faults. */

describe("embedded idempotency and faults", () => {
  let sb: EmbeddedSandbox

  beforeAll(async () => {
    sb = await startEmbeddedSandbox()
  })
  afterAll(() => sb.close())
  afterEach(async () => {
    await sb.control("DELETE", "/faults")
  })

  const body = (orderId: string) => ({ amount: 500, orderId, returnUrl: "https://localhost/r" })
  const count = async (orderId: string) => (await sb.ok("GET", "/v1/payment-intents?limit=100")).items.filter((i: { orderId: string }) => i.orderId === orderId).length

  it("same key, endpoint and body: the first answer again, byte for byte, with Idempotency-Replayed: true", async () => {
    const first = await sb.api("POST", "/v1/payment-intents", body("idem-1"), { idempotencyKey: "key-1" })
    expect(first.status).toBe(200)
    expect(first.headers.get("idempotency-replayed")).toBeNull()
    // the same JSON value written differently is the same body
    const raw = JSON.stringify({ returnUrl: "https://localhost/r", orderId: "idem-1", amount: 500 }, null, 2)
    const second = await sb.api("POST", "/v1/payment-intents", undefined, { idempotencyKey: "key-1", rawBody: raw })
    expect(second.status).toBe(200)
    expect(second.headers.get("idempotency-replayed")).toBe("true")
    expect(second.text).toBe(first.text)
    expect(second.headers.get("x-request-id")).toBe(first.json.requestId)
    expect(second.json.data.clientSecret).toBe(first.json.data.clientSecret)
    expect(await count("idem-1")).toBe(1)
  })

  it("same key with another body or endpoint: 422 IDEMPOTENCY_KEY_REUSED", async () => {
    await sb.ok("POST", "/v1/payment-intents", body("idem-2"), { idempotencyKey: "key-2" })
    expectError(await sb.api("POST", "/v1/payment-intents", { ...body("idem-2"), amount: 501 }, { idempotencyKey: "key-2" }), 422, "IDEMPOTENCY_KEY_REUSED", "Idempotency-Key")
    expectError(await sb.api("POST", "/v1/refunds", { paymentIntentId: "pi_x", reason: "duplicate" }, { idempotencyKey: "key-2" }), 422, "IDEMPOTENCY_KEY_REUSED", "Idempotency-Key")
    expect(await count("idem-2")).toBe(1)
  })

  it("keys are 1 to 255 printable ASCII characters", async () => {
    for (const key of ["a", " spaced key ~!", "k".repeat(255)]) {
      expect((await sb.api("POST", "/v1/payment-intents", body(`fmt-${key.length}-${key.charCodeAt(1)}`), { idempotencyKey: key })).status).toBe(200)
    }
    for (const key of ["", "k".repeat(256), "caf\u00e9", "tab\there"]) {
      expectError(await sb.api("POST", "/v1/payment-intents", body("fmt-bad"), { idempotencyKey: key }), 400, "INVALID_REQUEST", "Idempotency-Key")
    }
    expect(await count("fmt-bad")).toBe(0)
  })

  it("records last 24 hours of sandbox time; then the key is new again", async () => {
    await sb.ok("POST", "/v1/payment-intents", body("idem-24h"), { idempotencyKey: "key-24h" })
    await sb.advance(24 * 3600 - 10)
    expect((await sb.api("POST", "/v1/payment-intents", body("idem-24h"), { idempotencyKey: "key-24h" })).headers.get("idempotency-replayed")).toBe("true")
    await sb.advance(10)
    const later = await sb.api("POST", "/v1/payment-intents", { ...body("idem-24h"), amount: 9 }, { idempotencyKey: "key-24h" })
    expect(later.status).toBe(200)
    expect(later.headers.get("idempotency-replayed")).toBeNull()
    expect(await count("idem-24h")).toBe(2)
  })

  it("keys belong to one merchant", async () => {
    const other = await sb.merchant("idem-other")
    await sb.ok("POST", "/v1/payment-intents", body("idem-m"), { idempotencyKey: "shared" })
    const res = await sb.api("POST", "/v1/payment-intents", { ...body("idem-m"), returnUrl: "https://shop.test/r" }, { key: other.sk, idempotencyKey: "shared" })
    expect(res.status).toBe(200)
    expect(res.headers.get("idempotency-replayed")).toBeNull()
  })

  it("while the first request has no result: 409 IDEMPOTENCY_KEY_IN_PROGRESS; after 5 minutes it is processed again", async () => {
    // the first request hangs for good (timeout fault, nothing applied, connection dropped)
    await sb.control("POST", "/faults", { api: "embedded", kind: "timeout", endpoint: "POST /v1/payment-intents", holdMs: 50, then: "drop", applied: false })
    await expect(sb.api("POST", "/v1/payment-intents", body("idem-hang"), { idempotencyKey: "key-hang" })).rejects.toThrow()
    expect(await count("idem-hang")).toBe(0)
    expectError(await sb.api("POST", "/v1/payment-intents", body("idem-hang"), { idempotencyKey: "key-hang" }), 409, "IDEMPOTENCY_KEY_IN_PROGRESS", "Idempotency-Key")
    await sb.advance(4 * 60 + 59)
    expectError(await sb.api("POST", "/v1/payment-intents", body("idem-hang"), { idempotencyKey: "key-hang" }), 409, "IDEMPOTENCY_KEY_IN_PROGRESS")
    // another body is still a reuse, even while in progress
    expectError(await sb.api("POST", "/v1/payment-intents", body("idem-other-body"), { idempotencyKey: "key-hang" }), 422, "IDEMPOTENCY_KEY_REUSED")
    await sb.advance(1)
    const retried = await sb.api("POST", "/v1/payment-intents", body("idem-hang"), { idempotencyKey: "key-hang" })
    expect(retried.status).toBe(200)
    expect(retried.headers.get("idempotency-replayed")).toBeNull()
    expect(await count("idem-hang")).toBe(1)
    expect((await sb.api("POST", "/v1/payment-intents", body("idem-hang"), { idempotencyKey: "key-hang" })).headers.get("idempotency-replayed")).toBe("true")
  })

  it("a slow first request holds its key: a concurrent retry is 409, a later one replays", async () => {
    await sb.control("POST", "/faults", { api: "embedded", kind: "timeout", endpoint: "POST /v1/payment-intents", holdMs: 800, applied: true })
    const slow = sb.api("POST", "/v1/payment-intents", body("idem-slow"), { idempotencyKey: "key-slow" })
    await new Promise((r) => setTimeout(r, 200))
    expectError(await sb.api("POST", "/v1/payment-intents", body("idem-slow"), { idempotencyKey: "key-slow" }), 409, "IDEMPOTENCY_KEY_IN_PROGRESS")
    const first = await slow
    expect(first.status).toBe(200)
    const replay = await sb.api("POST", "/v1/payment-intents", body("idem-slow"), { idempotencyKey: "key-slow" })
    expect(replay.headers.get("idempotency-replayed")).toBe("true")
    expect(replay.text).toBe(first.text)
    expect(await count("idem-slow")).toBe(1)
  })

  it("confirm: a replay returns the first result (402 included) without charging again", async () => {
    const intent = await sb.createIntent()
    const token = await sb.token(DECLINE_CARDS[0][0])
    const first = await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token }, { key: sb.pk, idempotencyKey: "confirm-1" })
    expectError(first, 402, "CARD_DECLINED")
    const again = await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token }, { key: sb.pk, idempotencyKey: "confirm-1" })
    expect(again.status).toBe(402)
    expect(again.headers.get("idempotency-replayed")).toBe("true")
    expect(again.text).toBe(first.text)
    const ok = await sb.createIntent()
    const okToken = await sb.token(SUCCESS_CARD)
    const paid = await sb.api("POST", "/v1/confirm", { clientSecret: ok.clientSecret, token: okToken }, { key: sb.pk, idempotencyKey: "confirm-2" })
    const replay = await sb.api("POST", "/v1/confirm", { clientSecret: ok.clientSecret, token: okToken }, { key: sb.pk, idempotencyKey: "confirm-2" })
    expect(replay.json.data).toEqual(paid.json.data)
    expect(replay.headers.get("idempotency-replayed")).toBe("true")
  })

  describe("faults", () => {
    it("http500 not applied: 500 INTERNAL_ERROR, nothing created, the key stays free", async () => {
      await sb.control("POST", "/faults", { api: "embedded", kind: "http500", endpoint: "POST /v1/payment-intents" })
      expectError(await sb.api("POST", "/v1/payment-intents", body("f-500"), { idempotencyKey: "f-500" }), 500, "INTERNAL_ERROR", null)
      expect(await count("f-500")).toBe(0)
      const retry = await sb.api("POST", "/v1/payment-intents", body("f-500"), { idempotencyKey: "f-500" })
      expect(retry.status).toBe(200)
      expect(retry.headers.get("idempotency-replayed")).toBeNull()
      expect(await count("f-500")).toBe(1)
    })

    it("http500 applied: 500 but the intent exists; the retry with the same key gets the real answer", async () => {
      await sb.control("POST", "/faults", { api: "embedded", kind: "http500", endpoint: "POST /v1/payment-intents", applied: true })
      expectError(await sb.api("POST", "/v1/payment-intents", body("f-500a"), { idempotencyKey: "f-500a" }), 500, "INTERNAL_ERROR")
      expect(await count("f-500a")).toBe(1)
      const retry = await sb.api("POST", "/v1/payment-intents", body("f-500a"), { idempotencyKey: "f-500a" })
      expect(retry.status).toBe(200)
      expect(retry.headers.get("idempotency-replayed")).toBe("true")
      expect(await count("f-500a")).toBe(1)
    })

    it("faults hit only their merchant and endpoint, count down, and may target SDK endpoints", async () => {
      await sb.control("POST", "/faults", { api: "embedded", kind: "http500", endpoint: "POST /v1/tokens", merchantId: "demo-shop", count: 2 })
      expect((await sb.api("GET", "/v1/payment-intents")).status).toBe(200)
      for (let i = 0; i < 2; i++) {
        expectError(await sb.api("POST", "/v1/tokens", { card: { number: SUCCESS_CARD, expMonth: 1, expYear: 2040, cvc: "123" } }, { key: sb.pk }), 500, "INTERNAL_ERROR")
      }
      expect(await sb.token(SUCCESS_CARD)).toMatch(/^tok_/)
    })

    it("timeout applied with an answer: held, then the real answer", async () => {
      await sb.control("POST", "/faults", { api: "embedded", kind: "timeout", endpoint: "GET /v1/payment-intents", holdMs: 300 })
      const started = Date.now()
      const res = await sb.api("GET", "/v1/payment-intents")
      expect(Date.now() - started).toBeGreaterThanOrEqual(280)
      expect(res.status).toBe(200)
    })

    it("the control API refuses unknown embedded endpoints and refundReconciliation elsewhere", async () => {
      expect((await sb.control("POST", "/faults", { api: "embedded", kind: "http500", endpoint: "POST /v1/nothing" })).status).toBe(400)
      expect((await sb.control("POST", "/faults", { api: "embedded", kind: "http500", endpoint: "POST /payment-intents" })).status).toBe(400)
      expect((await sb.control("POST", "/faults", { kind: "refundReconciliation", endpoint: "POST /v1/payment-intents" })).status).toBe(400)
      expect((await sb.control("POST", "/faults", { api: "hosted", kind: "refundReconciliation" })).status).toBe(400)
      expect((await sb.control("POST", "/faults", { api: "embedded", kind: "c026" })).status).toBe(400)
      const ok = await sb.control("POST", "/faults", { kind: "refundReconciliation" })
      expect(ok.status).toBe(201)
      expect(ok.json).toMatchObject({ api: "embedded", kind: "refundReconciliation", applied: true })
    })
  })
})
