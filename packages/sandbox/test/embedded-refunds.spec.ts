import { DECLINE_CARDS, type EmbeddedSandbox, expectError, FAILING_REFUND_CARD, PENDING_REFUND_CARD, startEmbeddedSandbox, THREE_DS_CARD } from "./embedded-helpers"

/** Spec 2.2, 3.2, 7 and 8: refunds, their limits, states, events and faults. */

const REFUND_FIELDS = ["amount", "created", "failureCode", "id", "metadata", "paymentIntentId", "reason", "status"]

describe("embedded refunds", () => {
  let sb: EmbeddedSandbox

  beforeAll(async () => {
    sb = await startEmbeddedSandbox()
  })
  afterAll(() => sb.close())
  afterEach(async () => {
    await sb.control("DELETE", "/faults")
  })

  const refund = (paymentIntentId: string, extra: Record<string, unknown> = {}, idempotencyKey?: string) =>
    sb.api("POST", "/v1/refunds", { paymentIntentId, reason: "requested_by_customer", ...extra }, { idempotencyKey })
  const events = async (type: string) => (await sb.control("GET", `/webhook-events?type=${type}`)).json.events as { body: { data: { id: string; status: string } } }[]

  it("several partial refunds up to amountRefundable; omitted amount refunds the rest; beyond is REFUND_AMOUNT_EXCEEDED", async () => {
    const intent = await sb.paidIntent(undefined, { amount: 1000 })
    const first = await refund(intent.id, { amount: 300, metadata: { ticket: "T-1" } })
    expect(first.status).toBe(200)
    expect(Object.keys(first.json.data).sort()).toEqual(REFUND_FIELDS.sort())
    expect(first.json.data).toMatchObject({ paymentIntentId: intent.id, amount: 300, status: "succeeded", reason: "requested_by_customer", metadata: { ticket: "T-1" }, failureCode: null })
    expect(first.json.data.id).toMatch(/^re_[0-9A-Za-z]{24}$/)
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(700)
    expect((await refund(intent.id, { amount: 200, reason: "duplicate" })).json.data.amount).toBe(200)
    expectError(await refund(intent.id, { amount: 501 }), 400, "REFUND_AMOUNT_EXCEEDED", "amount")
    const rest = await refund(intent.id, { reason: "fraudulent" })
    expect(rest.json.data).toMatchObject({ amount: 500, reason: "fraudulent", status: "succeeded" })
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(0)
    expectError(await refund(intent.id), 400, "REFUND_AMOUNT_EXCEEDED")
    expectError(await refund(intent.id, { amount: 1 }), 400, "REFUND_AMOUNT_EXCEEDED", "amount")
    // the intent itself stays succeeded
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).status).toBe("succeeded")
  })

  it("body rules: paymentIntentId and reason required, reason one of three, amount 1-200000, metadata limits, no other fields", async () => {
    const intent = await sb.paidIntent()
    expectError(await sb.api("POST", "/v1/refunds", { reason: "duplicate" }), 400, "INVALID_REQUEST", "paymentIntentId")
    expectError(await sb.api("POST", "/v1/refunds", { paymentIntentId: intent.id }), 400, "INVALID_REQUEST", "reason")
    expectError(await refund(intent.id, { reason: "changed_mind" }), 400, "INVALID_REQUEST", "reason")
    for (const amount of [0, -1, 1.5, "10", 200001]) {
      expectError(await refund(intent.id, { amount }), 400, "INVALID_AMOUNT", "amount")
    }
    expectError(await refund(intent.id, { metadata: { "bad key": "x" } }), 400, "METADATA_LIMIT_EXCEEDED", "metadata.bad key")
    expectError(await refund(intent.id, { currency: "TWD" }), 400, "INVALID_REQUEST", "currency")
    expectError(await refund("pi_missing"), 404, "PAYMENT_INTENT_NOT_FOUND")
  })

  it("intents that did not succeed: created/failed have nothing refundable, canceled says so", async () => {
    const created = await sb.createIntent()
    expectError(await refund(created.id), 400, "REFUND_AMOUNT_EXCEEDED", "paymentIntentId")
    const failed = await sb.createIntent()
    await sb.confirm(failed.clientSecret, DECLINE_CARDS[0][0])
    expectError(await refund(failed.id), 400, "REFUND_AMOUNT_EXCEEDED")
    const challenged = await sb.createIntent()
    await sb.confirm(challenged.clientSecret, THREE_DS_CARD)
    expectError(await refund(challenged.id), 400, "REFUND_AMOUNT_EXCEEDED")
    await sb.api("POST", `/v1/payment-intents/${created.id}/cancel`)
    expectError(await refund(created.id), 400, "PAYMENT_INTENT_CANCELED", "paymentIntentId")
  })

  it("refunds are possible for 180 days after success, then REFUND_WINDOW_EXPIRED", async () => {
    const intent = await sb.paidIntent()
    // (real milliseconds pass between the calls too, so the edges are a second apart)
    await sb.advance(180 * 24 * 3600 - 1)
    expect((await refund(intent.id, { amount: 1 })).status).toBe(200)
    await sb.advance(2)
    expectError(await refund(intent.id, { amount: 1 }), 400, "REFUND_WINDOW_EXPIRED")
  })

  it("a pending refund blocks the next (409 REFUND_IN_PROGRESS) until it succeeds a minute later", async () => {
    const intent = await sb.paidIntent(PENDING_REFUND_CARD, { amount: 900 })
    const pending = await refund(intent.id, { amount: 100 })
    expect(pending.json.data).toMatchObject({ status: "pending", failureCode: null })
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(800)
    expectError(await refund(intent.id, { amount: 100 }), 409, "REFUND_IN_PROGRESS", "paymentIntentId")
    await sb.advance(59)
    expect((await sb.ok("GET", `/v1/refunds/${pending.json.data.id}`)).status).toBe("pending")
    await sb.advance(1)
    expect((await sb.ok("GET", `/v1/refunds/${pending.json.data.id}`)).status).toBe("succeeded")
    expect((await events("refund.succeeded")).some((e) => e.body.data.id === pending.json.data.id)).toBe(true)
    const next = await refund(intent.id, { amount: 100 })
    expect(next.json.data.status).toBe("pending")
    // the control API can end it either way
    const failed = await sb.control("POST", `/refunds/${next.json.data.id}/resolve`, { outcome: "failed" })
    expect(failed.json).toMatchObject({ status: "failed", failureCode: "REFUND_DECLINED" })
    expect((await sb.control("POST", `/refunds/${next.json.data.id}/resolve`, { outcome: "succeeded" })).status).toBe(409)
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(800)
  })

  it("a 200 can carry status failed: the failing-refund card; nothing is deducted; events created + failed", async () => {
    const intent = await sb.paidIntent(FAILING_REFUND_CARD, { amount: 400 })
    const res = await refund(intent.id, { amount: 150 })
    expect(res.status).toBe(200)
    expect(res.json.data).toMatchObject({ status: "failed", failureCode: "REFUND_DECLINED", amount: 150 })
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(400)
    const id = res.json.data.id
    expect((await events("refund.created")).find((e) => e.body.data.id === id)?.body.data.status).toBe("failed")
    expect((await events("refund.failed")).some((e) => e.body.data.id === id)).toBe(true)
    expect((await events("refund.succeeded")).some((e) => e.body.data.id === id)).toBe(false)
  })

  it("GET and list: 404 REFUND_NOT_FOUND; filter by paymentIntentId, newest first, limit and hasMore", async () => {
    const a = await sb.paidIntent(undefined, { amount: 50 })
    const b = await sb.paidIntent(undefined, { amount: 50 })
    const r1 = (await refund(a.id, { amount: 10 })).json.data
    const r2 = (await refund(b.id, { amount: 10 })).json.data
    const r3 = (await refund(a.id, { amount: 10 })).json.data
    expect(await sb.ok("GET", `/v1/refunds/${r1.id}`)).toEqual(r1)
    expectError(await sb.api("GET", "/v1/refunds/re_missing"), 404, "REFUND_NOT_FOUND")
    expect((await sb.ok("GET", `/v1/refunds?paymentIntentId=${a.id}`)).items.map((r: { id: string }) => r.id)).toEqual([r3.id, r1.id])
    const page = await sb.ok("GET", "/v1/refunds?limit=2")
    expect(page.items.map((r: { id: string }) => r.id)).toEqual([r3.id, r2.id])
    expect(page.hasMore).toBe(true)
    expectError(await sb.api("GET", "/v1/refunds?limit=101"), 400, "INVALID_REQUEST", "limit")
    const other = await sb.merchant("refund-other")
    expectError(await sb.api("GET", `/v1/refunds/${r1.id}`, undefined, { key: other.sk }), 404, "REFUND_NOT_FOUND")
  })

  it("Idempotency-Key on create refund: a retry replays, no second refund", async () => {
    const intent = await sb.paidIntent(undefined, { amount: 300 })
    const first = await refund(intent.id, { amount: 100 }, "refund-key")
    const again = await refund(intent.id, { amount: 100 }, "refund-key")
    expect(again.headers.get("idempotency-replayed")).toBe("true")
    expect(again.json.data.id).toBe(first.json.data.id)
    expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(200)
  })

  describe("faults", () => {
    it("refundReconciliation applied: 409 REFUND_RECONCILIATION_REQUIRED, yet the refund exists; the same key then answers it", async () => {
      const intent = await sb.paidIntent(undefined, { amount: 300 })
      await sb.control("POST", "/faults", { kind: "refundReconciliation", applied: true })
      expectError(await refund(intent.id, { amount: 100 }, "recon-1"), 409, "REFUND_RECONCILIATION_REQUIRED", null)
      const listed = await sb.ok("GET", `/v1/refunds?paymentIntentId=${intent.id}`)
      expect(listed.items).toHaveLength(1)
      const retry = await refund(intent.id, { amount: 100 }, "recon-1")
      expect(retry.status).toBe(200)
      expect(retry.headers.get("idempotency-replayed")).toBe("true")
      expect(retry.json.data.id).toBe(listed.items[0].id)
      expect((await sb.ok("GET", `/v1/payment-intents/${intent.id}`)).amountRefundable).toBe(200)
    })

    it("refundReconciliation not applied: 409, no refund; the retry creates it", async () => {
      const intent = await sb.paidIntent(undefined, { amount: 300 })
      await sb.control("POST", "/faults", { kind: "refundReconciliation", applied: false })
      expectError(await refund(intent.id, { amount: 100 }, "recon-2"), 409, "REFUND_RECONCILIATION_REQUIRED")
      expect((await sb.ok("GET", `/v1/refunds?paymentIntentId=${intent.id}`)).items).toHaveLength(0)
      const retry = await refund(intent.id, { amount: 100 }, "recon-2")
      expect(retry.json.data.status).toBe("succeeded")
      expect(retry.headers.get("idempotency-replayed")).toBeNull()
    })

    it.each([true, false])("INTERNAL_ERROR on refunds with applied=%p", async (applied) => {
      const intent = await sb.paidIntent(undefined, { amount: 300 })
      await sb.control("POST", "/faults", { api: "embedded", kind: "http500", endpoint: "POST /v1/refunds", applied })
      expectError(await refund(intent.id, { amount: 100 }), 500, "INTERNAL_ERROR")
      expect((await sb.ok("GET", `/v1/refunds?paymentIntentId=${intent.id}`)).items).toHaveLength(applied ? 1 : 0)
    })
  })
})
