import {
  DECLINE_CARDS,
  type EmbeddedSandbox,
  expectError,
  PROCESSING_FAILS_CARD,
  PROCESSING_SUCCEEDS_CARD,
  startEmbeddedSandbox,
  SUCCESS_CARD,
  THREE_DS_CARD,
} from "./embedded-helpers"

/** Spec 2.1, 3.1, 4, 7 and 8: payment intents, their limits, the SDK endpoints and every transition. */

const INTENT_FIELDS = ["amount", "amountRefundable", "created", "currency", "description", "id", "lastPaymentError", "metadata", "orderId", "require3ds", "returnUrl", "status"]

describe("embedded payment intents", () => {
  let sb: EmbeddedSandbox

  beforeAll(async () => {
    sb = await startEmbeddedSandbox()
  })
  afterAll(() => sb.close())

  const create = (body: Record<string, unknown>) => sb.api("POST", "/v1/payment-intents", { amount: 100, orderId: "o-1", returnUrl: "https://localhost/r", ...body })

  describe("create", () => {
    it("answers the PaymentIntent with a clientSecret once; reads never show it", async () => {
      const before = Math.floor((await sb.nowMs()) / 1000)
      const res = await create({ amount: 2500, orderId: "order-42", description: "Tea", metadata: { sessionId: "ps_1" }, require3ds: false, currency: "TWD" })
      expect(res.status).toBe(200)
      const data = res.json.data
      expect(Object.keys(data).sort()).toEqual([...INTENT_FIELDS, "clientSecret"].sort())
      expect(data).toMatchObject({ status: "created", amount: 2500, currency: "TWD", orderId: "order-42", description: "Tea", metadata: { sessionId: "ps_1" }, require3ds: false, lastPaymentError: null, amountRefundable: 0 })
      expect(data.id).toMatch(/^pi_[0-9A-Za-z]{24}$/)
      expect(data.clientSecret).toMatch(new RegExp(`^${data.id}_secret_[0-9A-Za-z]+$`))
      expect(data.created).toBeGreaterThanOrEqual(before)
      const read = await sb.ok("GET", `/v1/payment-intents/${data.id}`)
      expect(Object.keys(read).sort()).toEqual(INTENT_FIELDS.sort())
      expect(read.clientSecret).toBeUndefined()
    })

    it("defaults: currency TWD, description null, metadata {}, require3ds false", async () => {
      const data = (await create({})).json.data
      expect(data).toMatchObject({ currency: "TWD", description: null, metadata: {}, require3ds: false })
    })

    const amountCases: [unknown, number][] = [
      [1, 200],
      [200000, 200],
      [0, 400],
      [200001, 400],
      [-5, 400],
      [10.5, 400],
      ["100", 400],
      [null, 400],
    ]
    it.each(amountCases)("amount %p -> %i", async (amount, status) => {
      const res = await create({ amount })
      if (status === 200) {
        expect(res.json.data.amount).toBe(amount)
      } else {
        expectError(res, 400, "INVALID_AMOUNT", "amount")
      }
    })

    it("a missing amount is INVALID_AMOUNT; other currencies INVALID_CURRENCY", async () => {
      expectError(await sb.api("POST", "/v1/payment-intents", { orderId: "o", returnUrl: "https://localhost/r" }), 400, "INVALID_AMOUNT", "amount")
      for (const currency of ["USD", "twd", ""]) {
        expectError(await create({ currency }), 400, "INVALID_CURRENCY", "currency")
      }
    })

    it("orderId: 1 to 255 characters, no #, no control characters", async () => {
      expect((await create({ orderId: "x".repeat(255) })).status).toBe(200)
      expect((await create({ orderId: "訂單-" + "字".repeat(252) })).status).toBe(200)
      for (const orderId of ["", "x".repeat(256), "order#1", "a\nb", "tab\there", "nul\u0000", "del\u007f", "c1\u0085"]) {
        expectError(await create({ orderId }), 400, "INVALID_REQUEST", "orderId")
      }
      expectError(await sb.api("POST", "/v1/payment-intents", { amount: 1, returnUrl: "https://localhost/r" }), 400, "INVALID_REQUEST", "orderId")
      expectError(await create({ orderId: 12 }), 400, "INVALID_REQUEST", "orderId")
    })

    it("description: up to 1000 characters", async () => {
      expect((await create({ description: "d".repeat(1000) })).status).toBe(200)
      expectError(await create({ description: "d".repeat(1001) }), 400, "INVALID_REQUEST", "description")
      expectError(await create({ description: 5 }), 400, "INVALID_REQUEST", "description")
    })

    it("metadata: 20 pairs, key 40 of [A-Za-z0-9_], value 500, 8 KB total", async () => {
      const pairs = (n: number, value = "v") => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]))
      expect((await create({ metadata: pairs(20) })).status).toBe(200)
      expectError(await create({ metadata: pairs(21) }), 400, "METADATA_LIMIT_EXCEEDED", "metadata")
      expect((await create({ metadata: { ["k".repeat(40)]: "v" } })).status).toBe(200)
      expectError(await create({ metadata: { ["k".repeat(41)]: "v" } }), 400, "METADATA_LIMIT_EXCEEDED", `metadata.${"k".repeat(41)}`)
      expectError(await create({ metadata: { "bad-key": "v" } }), 400, "METADATA_LIMIT_EXCEEDED", "metadata.bad-key")
      expectError(await create({ metadata: { "": "v" } }), 400, "METADATA_LIMIT_EXCEEDED", "metadata.")
      expect((await create({ metadata: { note: "n".repeat(500) } })).status).toBe(200)
      expectError(await create({ metadata: { note: "n".repeat(501) } }), 400, "METADATA_LIMIT_EXCEEDED", "metadata.note")
      expectError(await create({ metadata: { n: 5 } }), 400, "METADATA_LIMIT_EXCEEDED", "metadata.n")
      // 17 values of 500 characters: under every per-pair rule, over 8 KB in total
      const big = pairs(17, "v".repeat(500))
      expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(8192)
      expectError(await create({ metadata: big }), 400, "METADATA_LIMIT_EXCEEDED", "metadata")
      const fits = pairs(16, "v".repeat(500))
      expect(Buffer.byteLength(JSON.stringify(fits))).toBeLessThanOrEqual(8192)
      expect((await create({ metadata: fits })).status).toBe(200)
      for (const metadata of [null, [], "x"]) {
        expectError(await create({ metadata }), 400, "INVALID_REQUEST", "metadata")
      }
    })

    it("require3ds must be a boolean; unknown fields are refused", async () => {
      expectError(await create({ require3ds: "yes" }), 400, "INVALID_REQUEST", "require3ds")
      expectError(await create({ captureMethod: "manual" }), 400, "INVALID_REQUEST", "captureMethod")
      expectError(await create({ clientSecret: "x" }), 400, "INVALID_REQUEST", "clientSecret")
    })
  })

  describe("list, read, update, cancel", () => {
    it("lists newest first with status, createdGte, createdLte, limit 1-100 and hasMore", async () => {
      const keys = await sb.merchant("list-shop")
      const mk = async (n: number) => (await sb.api("POST", "/v1/payment-intents", { amount: n, orderId: `o${n}`, returnUrl: "https://shop.test/r" }, { key: keys.sk })).json.data
      const first = await mk(1)
      await sb.advance(10)
      const second = await mk(2)
      await sb.advance(10)
      const third = await mk(3)
      await sb.api("POST", `/v1/payment-intents/${second.id}/cancel`, undefined, { key: keys.sk })
      const list = (query: string) => sb.ok("GET", `/v1/payment-intents${query}`, undefined, { key: keys.sk })
      expect((await list("")).items.map((i: { id: string }) => i.id)).toEqual([third.id, second.id, first.id])
      expect(await list("?limit=2")).toMatchObject({ hasMore: true, items: [{ id: third.id }, { id: second.id }] })
      expect(await list(`?limit=2&startingAfter=${second.id}`)).toEqual({ hasMore: false, items: [expect.objectContaining({ id: first.id })] })
      expect((await list("?status=canceled")).items.map((i: { id: string }) => i.id)).toEqual([second.id])
      expect((await list(`?createdGte=${second.created}`)).items.map((i: { id: string }) => i.id)).toEqual([third.id, second.id])
      expect((await list(`?createdLte=${second.created}`)).items.map((i: { id: string }) => i.id)).toEqual([second.id, first.id])
      expect((await list(`?createdGte=${second.created}&createdLte=${second.created}`)).items).toHaveLength(1)
      expect((await list("?limit=100")).items).toHaveLength(3)
      expect((await list("?limit=1")).items).toHaveLength(1)
      for (const bad of ["?limit=0", "?limit=101", "?limit=abc", "?limit=1.5"]) {
        expectError(await sb.api("GET", `/v1/payment-intents${bad}`, undefined, { key: keys.sk }), 400, "INVALID_REQUEST", "limit")
      }
      expectError(await sb.api("GET", "/v1/payment-intents?status=done", undefined, { key: keys.sk }), 400, "INVALID_REQUEST", "status")
      expectError(await sb.api("GET", "/v1/payment-intents?createdGte=yesterday", undefined, { key: keys.sk }), 400, "INVALID_REQUEST", "createdGte")
    })

    it("GET of an unknown id is 404 PAYMENT_INTENT_NOT_FOUND", async () => {
      expectError(await sb.api("GET", "/v1/payment-intents/pi_missing"), 404, "PAYMENT_INTENT_NOT_FOUND")
    })

    it("PATCH changes only metadata (replaced as a whole, in any status)", async () => {
      const intent = await sb.createIntent({ metadata: { a: "1" } })
      const patched = await sb.ok("PATCH", `/v1/payment-intents/${intent.id}`, { metadata: { b: "2" } })
      expect(patched.metadata).toEqual({ b: "2" })
      expectError(await sb.api("PATCH", `/v1/payment-intents/${intent.id}`, { amount: 5 }), 400, "INVALID_REQUEST", "amount")
      expectError(await sb.api("PATCH", `/v1/payment-intents/${intent.id}`, { metadata: { "x-y": "1" } }), 400, "METADATA_LIMIT_EXCEEDED", "metadata.x-y")
      const paid = await sb.paidIntent()
      expect((await sb.ok("PATCH", `/v1/payment-intents/${paid.id}`, { metadata: { after: "yes" } })).metadata).toEqual({ after: "yes" })
      expectError(await sb.api("PATCH", "/v1/payment-intents/pi_missing", { metadata: {} }), 404, "PAYMENT_INTENT_NOT_FOUND")
    })

    it("cancel: any non-final intent -> canceled; final ones give their code", async () => {
      const created = await sb.createIntent()
      const canceled = await sb.ok("POST", `/v1/payment-intents/${created.id}/cancel`)
      expect(canceled).toMatchObject({ id: created.id, status: "canceled" })
      expect(Object.keys(canceled).sort()).toEqual(INTENT_FIELDS.sort())
      expectError(await sb.api("POST", `/v1/payment-intents/${created.id}/cancel`), 400, "PAYMENT_INTENT_CANCELED")
      const paid = await sb.paidIntent()
      expectError(await sb.api("POST", `/v1/payment-intents/${paid.id}/cancel`), 400, "PAYMENT_INTENT_ALREADY_SUCCEEDED")
      const failed = await sb.createIntent()
      await sb.confirm(failed.clientSecret, DECLINE_CARDS[0][0])
      expectError(await sb.api("POST", `/v1/payment-intents/${failed.id}/cancel`), 400, "INVALID_REQUEST", null)
      // requiresAction and processing are not final either
      const challenged = await sb.createIntent()
      await sb.confirm(challenged.clientSecret, THREE_DS_CARD)
      expect((await sb.ok("POST", `/v1/payment-intents/${challenged.id}/cancel`)).status).toBe("canceled")
      const processing = await sb.createIntent()
      await sb.confirm(processing.clientSecret, PROCESSING_SUCCEEDS_CARD)
      expect((await sb.ok("POST", `/v1/payment-intents/${processing.id}/cancel`)).status).toBe("canceled")
      await sb.advance(20 * 60)
      expect((await sb.ok("GET", `/v1/payment-intents/${processing.id}`)).status).toBe("canceled")
      expectError(await sb.api("POST", "/v1/payment-intents/pi_missing/cancel"), 404, "PAYMENT_INTENT_NOT_FOUND")
      expectError(await sb.api("POST", `/v1/payment-intents/${created.id}/cancel`, { reason: "x" }), 400, "INVALID_REQUEST", "reason")
    })
  })

  describe("tokens, confirm and status (SDK endpoints)", () => {
    it("tokens check the card's form and answer a single-use tok_ with brand and last4", async () => {
      const data = await sb.ok("POST", "/v1/tokens", { card: { number: "5555555555554444", expMonth: 4, expYear: 2031, cvc: "1234" } }, { key: sb.pk })
      expect(data).toEqual({ id: expect.stringMatching(/^tok_/), card: { brand: "mastercard", last4: "4444", expMonth: 4, expYear: 2031 }, created: expect.any(Number) })
      const bad: [Record<string, unknown>, string][] = [
        [{ number: "4242 4242 4242 4242", expMonth: 1, expYear: 2040, cvc: "123" }, "card.number"],
        [{ number: "42424242424", expMonth: 1, expYear: 2040, cvc: "123" }, "card.number"],
        [{ number: SUCCESS_CARD, expMonth: 13, expYear: 2040, cvc: "123" }, "card.expMonth"],
        [{ number: SUCCESS_CARD, expMonth: 1, expYear: 40, cvc: "123" }, "card.expYear"],
        [{ number: SUCCESS_CARD, expMonth: 1, expYear: 2040, cvc: "12" }, "card.cvc"],
        [{ number: SUCCESS_CARD, expMonth: 1, expYear: 2040 }, "card.cvc"],
        [{ number: SUCCESS_CARD, expMonth: 1, expYear: 2040, cvc: "123", name: "x" }, "card.name"],
      ]
      for (const [card, field] of bad) {
        expectError(await sb.api("POST", "/v1/tokens", { card }, { key: sb.pk }), 400, "INVALID_REQUEST", field)
      }
      expectError(await sb.api("POST", "/v1/tokens", {}, { key: sb.pk }), 400, "INVALID_REQUEST", "card")
    })

    it("confirm: success -> succeeded, amountRefundable = amount; a token works once", async () => {
      const intent = await sb.createIntent({ amount: 777 })
      const token = await sb.token(SUCCESS_CARD)
      const res = await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token }, { key: sb.pk })
      expect(res.status).toBe(200)
      expect(res.json.data).toMatchObject({ id: intent.id, status: "succeeded", amountRefundable: 777, nextAction: null, lastPaymentError: null })
      expect(res.json.data.clientSecret).toBeUndefined()
      const again = await sb.createIntent()
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: again.clientSecret, token }, { key: sb.pk }), 400, "INVALID_REQUEST", "token")
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: again.clientSecret, token: "tok_nope" }, { key: sb.pk }), 400, "INVALID_REQUEST", "token")
      // confirming a succeeded intent
      const next = await sb.token(SUCCESS_CARD)
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token: next }, { key: sb.pk }), 400, "PAYMENT_INTENT_ALREADY_SUCCEEDED")
    })

    it("confirm needs the right client secret (404 otherwise) and refuses an unregistered returnUrl", async () => {
      const intent = await sb.createIntent()
      const token = await sb.token(SUCCESS_CARD)
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: `${intent.id}_secret_wrong`, token }, { key: sb.pk }), 404, "PAYMENT_INTENT_NOT_FOUND")
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: "garbage", token }, { key: sb.pk }), 404, "PAYMENT_INTENT_NOT_FOUND")
      expectError(await sb.api("POST", "/v1/confirm", { token }, { key: sb.pk }), 400, "INVALID_REQUEST", "clientSecret")
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token, returnUrl: "https://evil.example/x" }, { key: sb.pk }), 403, "DOMAIN_NOT_REGISTERED", "returnUrl")
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret }, { key: sb.pk }), 400, "INVALID_REQUEST", "token")
      // a token of another merchant is unknown here
      const other = await sb.merchant("token-shop")
      const foreign = (await sb.ok("POST", "/v1/tokens", { card: { number: SUCCESS_CARD, expMonth: 1, expYear: 2040, cvc: "123" } }, { key: other.pk })).id
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token: foreign }, { key: sb.pk }), 400, "INVALID_REQUEST", "token")
      // the secret key may name the intent by id
      const ok = await sb.api("POST", "/v1/confirm", { paymentIntentId: intent.id, token }, { key: sb.sk })
      expect(ok.json.data.status).toBe("succeeded")
    })

    it("a card token expires after 15 minutes of sandbox time", async () => {
      const intent = await sb.createIntent()
      const token = await sb.token(SUCCESS_CARD)
      await sb.advance(15 * 60 + 1)
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: intent.clientSecret, token }, { key: sb.pk }), 400, "INVALID_REQUEST", "token")
    })

    it.each(DECLINE_CARDS)("card %s fails with 402 %s: intent failed (final), lastPaymentError set", async (card, code) => {
      const intent = await sb.createIntent()
      const res = await sb.confirm(intent.clientSecret, card)
      expectError(res, 402, code, null)
      const read = await sb.ok("GET", `/v1/payment-intents/${intent.id}`)
      expect(read).toMatchObject({ status: "failed", lastPaymentError: { code, message: expect.any(String) }, amountRefundable: 0 })
      // terminal: a new intent is needed
      expectError(await sb.confirm(intent.clientSecret, SUCCESS_CARD), 400, "INVALID_REQUEST", null)
    })

    it("a number failing the Luhn check is CARD_INVALID_NUMBER; a past expiry CARD_EXPIRED", async () => {
      const a = await sb.createIntent()
      expectError(await sb.confirm(a.clientSecret, "4242424242424241"), 402, "CARD_INVALID_NUMBER")
      const b = await sb.createIntent()
      const token = await sb.token(SUCCESS_CARD, { expMonth: 1, expYear: 2001 })
      expectError(await sb.api("POST", "/v1/confirm", { clientSecret: b.clientSecret, token }, { key: sb.pk }), 402, "CARD_EXPIRED")
    })

    it("status endpoint: publishable key needs the client secret; shows id, status, amount, currency, lastPaymentError, nextAction", async () => {
      const intent = await sb.createIntent({ amount: 321 })
      const path = `/v1/payment-intents/${intent.id}/status`
      const read = await sb.ok("GET", `${path}?clientSecret=${intent.clientSecret}`, undefined, { key: sb.pk })
      expect(read).toEqual({ id: intent.id, status: "created", amount: 321, currency: "TWD", lastPaymentError: null, nextAction: null })
      expectError(await sb.api("GET", path, undefined, { key: sb.pk }), 400, "INVALID_REQUEST", "clientSecret")
      expectError(await sb.api("GET", `${path}?clientSecret=${intent.id}_secret_x`, undefined, { key: sb.pk }), 404, "PAYMENT_INTENT_NOT_FOUND")
      const other = await sb.createIntent()
      expectError(await sb.api("GET", `/v1/payment-intents/${other.id}/status?clientSecret=${intent.clientSecret}`, undefined, { key: sb.pk }), 404, "PAYMENT_INTENT_NOT_FOUND")
      expect((await sb.ok("GET", path)).status).toBe("created")
    })
  })

  describe("3-D Secure", () => {
    const challenge = async (overrides: Record<string, unknown> = {}, card = THREE_DS_CARD) => {
      const intent = await sb.createIntent(overrides)
      const res = await sb.confirm(intent.clientSecret, card)
      expect(res.status).toBe(200)
      expect(res.json.data.status).toBe("requiresAction")
      expect(res.json.data.nextAction).toEqual({ type: "threeDsChallenge", url: expect.stringMatching(/^\/sdk\/3ds\/3ds_/) })
      return intent
    }
    const simulate = (id: string, outcome: string, key = sb.pk) => sb.api("POST", "/v1/3ds/simulate", { paymentIntentId: id, outcome }, { key })

    it("pass -> succeeded", async () => {
      const intent = await challenge()
      const res = await simulate(intent.id, "success")
      expect(res.json.data).toMatchObject({ status: "succeeded", nextAction: null })
    })

    it("fail -> failed with 3DS_FAILED (final)", async () => {
      const intent = await challenge()
      expect((await simulate(intent.id, "failure", sb.sk)).json.data).toMatchObject({ status: "failed", lastPaymentError: { code: "3DS_FAILED" } })
      expectError(await sb.confirm(intent.clientSecret, SUCCESS_CARD), 400, "INVALID_REQUEST")
    })

    it.each([
      ["cancel", "3DS_CANCELED"],
      ["timeout", "3DS_TIMEOUT"],
    ])("%s -> requiresPaymentMethod (%s); the same intent can be paid again", async (outcome, code) => {
      const intent = await challenge()
      expect((await simulate(intent.id, outcome)).json.data).toMatchObject({ status: "requiresPaymentMethod", lastPaymentError: { code } })
      const again = await sb.confirm(intent.clientSecret, SUCCESS_CARD)
      expect(again.json.data).toMatchObject({ status: "succeeded", lastPaymentError: null })
    })

    it("a challenge left alone times out after 10 minutes of sandbox time", async () => {
      const intent = await challenge()
      await sb.advance(9 * 60 + 59)
      expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("requiresAction")
      await sb.advance(1)
      expect(await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).toMatchObject({ status: "requiresPaymentMethod", lastPaymentError: { code: "3DS_TIMEOUT" } })
    })

    it("require3ds sends any card through the challenge; after it, the card's own outcome applies", async () => {
      const ok = await challenge({ require3ds: true }, SUCCESS_CARD)
      expect((await simulate(ok.id, "success")).json.data.status).toBe("succeeded")
      const declined = await challenge({ require3ds: true }, DECLINE_CARDS[2][0])
      expect((await simulate(declined.id, "success")).json.data).toMatchObject({ status: "failed", lastPaymentError: { code: "CARD_INSUFFICIENT_FUNDS" } })
    })

    it("confirm while a challenge waits is refused; simulate without one too", async () => {
      const intent = await challenge()
      expectError(await sb.confirm(intent.clientSecret, SUCCESS_CARD), 400, "INVALID_REQUEST")
      const plain = await sb.createIntent()
      expectError(await simulate(plain.id, "success"), 400, "INVALID_REQUEST", "paymentIntentId")
      expectError(await simulate(intent.id, "maybe"), 400, "INVALID_REQUEST", "outcome")
      expectError(await simulate("pi_missing", "success"), 404, "PAYMENT_INTENT_NOT_FOUND")
      const canceled = await sb.createIntent()
      await sb.api("POST", `/v1/payment-intents/${canceled.id}/cancel`)
      expectError(await simulate(canceled.id, "success"), 400, "PAYMENT_INTENT_CANCELED")
      expectError(await sb.confirm(canceled.clientSecret, SUCCESS_CARD), 400, "PAYMENT_INTENT_CANCELED")
    })

    it("the challenge page: GET shows pass/fail/cancel; POST answers; a finished challenge says so", async () => {
      const intent = await challenge()
      const url = (await sb.ok("GET", `/v1/payment-intents/${intent.id}/status?clientSecret=${intent.clientSecret}`, undefined, { key: sb.pk })).nextAction.url
      const page = await fetch(`${sb.url}${url}?locale=en`)
      expect(page.status).toBe(200)
      expect(page.headers.get("content-security-policy")).toBe("frame-ancestors http://localhost:* https://localhost:* http://127.0.0.1:* https://127.0.0.1:*")
      const html = await page.text()
      for (const id of ['id="threeds-pass"', 'id="threeds-fail"', 'id="threeds-cancel"']) {
        expect(html).toContain(id)
      }
      const done = await fetch(`${sb.url}${url}`, { method: "POST", body: new URLSearchParams({ outcome: "failure" }), headers: { "content-type": "application/x-www-form-urlencoded" } })
      expect(await done.text()).toContain('id="done"')
      expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).lastPaymentError.code).toBe("3DS_FAILED")
      expect(await (await fetch(`${sb.url}${url}`)).text()).toContain('id="over"')
      expect((await fetch(`${sb.url}/sdk/3ds/3ds_unknown`)).status).toBe(404)
    })
  })

  describe("processing and reconciliation", () => {
    it("processing -> succeeded at the first 5-minute mark after 15 minutes stuck (15 to 20 minutes)", async () => {
      const intent = await sb.createIntent()
      const res = await sb.confirm(intent.clientSecret, PROCESSING_SUCCEEDS_CARD)
      expect(res.json.data).toMatchObject({ status: "processing", nextAction: null, amountRefundable: 0 })
      const start = Date.parse((await sb.control("GET", `/payment-intents/${intent.id}`)).json.processingSince)
      const mark = Math.ceil((start + 15 * 60_000) / 300_000) * 300_000
      await sb.advance((mark - (await sb.nowMs())) / 1000 - 1)
      expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("processing")
      await sb.advance(1)
      const settled = await sb.ok("GET", `/v1/payment-intents/${intent.id}`)
      expect(settled).toMatchObject({ status: "succeeded", amountRefundable: settled.amount })
      expect(mark - start).toBeGreaterThanOrEqual(15 * 60_000)
      expect(mark - start).toBeLessThan(20 * 60_000)
    })

    it("processing -> failed (CARD_DECLINED) for the failing processing card", async () => {
      const intent = await sb.createIntent()
      await sb.confirm(intent.clientSecret, PROCESSING_FAILS_CARD)
      expectError(await sb.confirm(intent.clientSecret, SUCCESS_CARD), 400, "INVALID_REQUEST")
      await sb.advance(20 * 60)
      expect(await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).toMatchObject({ status: "failed", lastPaymentError: { code: "CARD_DECLINED" } })
    })

    it("the control API can settle a processing payment at once, either way", async () => {
      const a = await sb.createIntent()
      await sb.confirm(a.clientSecret, PROCESSING_SUCCEEDS_CARD)
      const failed = await sb.control("POST", `/payment-intents/${a.id}/processing-resolve`, { outcome: "failed", code: "CARD_RISK_DECLINED" })
      expect(failed.json).toMatchObject({ status: "failed", lastPaymentError: { code: "CARD_RISK_DECLINED" } })
      expect((await sb.control("POST", `/payment-intents/${a.id}/processing-resolve`, {})).status).toBe(409)
      const b = await sb.createIntent()
      await sb.confirm(b.clientSecret, PROCESSING_FAILS_CARD)
      expect((await sb.control("POST", `/payment-intents/${b.id}/processing-resolve`, { outcome: "succeeded" })).json.status).toBe("succeeded")
      const c = await sb.createIntent()
      await sb.confirm(c.clientSecret, PROCESSING_FAILS_CARD)
      expect((await sb.control("POST", `/payment-intents/${c.id}/processing-resolve`)).json).toMatchObject({ status: "failed", lastPaymentError: { code: "CARD_DECLINED" } })
    })
  })
})
