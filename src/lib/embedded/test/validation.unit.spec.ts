import { InvalidRequestError } from "../../http"
import type { EmbeddedCardClient } from "../embedded-client"
import { createMockService, intentData, ok, refundData } from "./mock-service"

const intent = { amount: 1500, orderId: "order_1", returnUrl: "https://shop.example/return" }
const refund = { paymentIntentId: "pi_123", reason: "duplicate" as const }

const pairs = (count: number, value = "v") =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${String(i).padStart(2, "0")}`, value]))

type Case = [title: string, call: (c: EmbeddedCardClient) => Promise<unknown>, field: string | undefined]

// Inputs deliberately break the declared types.
/* eslint-disable @typescript-eslint/no-explicit-any */
const CASES: Case[] = [
  // amount: integer 1 to 200000
  ["amount 0", (c) => c.paymentIntents.create({ ...intent, amount: 0 }), "amount"],
  ["amount 200001", (c) => c.paymentIntents.create({ ...intent, amount: 200_001 }), "amount"],
  ["amount 15.5", (c) => c.paymentIntents.create({ ...intent, amount: 15.5 }), "amount"],
  ["amount as string", (c) => c.paymentIntents.create({ ...intent, amount: "1500" as any }), "amount"],
  ["amount missing", (c) => c.paymentIntents.create({ ...intent, amount: undefined as any }), "amount"],
  // currency: TWD only
  ["currency USD", (c) => c.paymentIntents.create({ ...intent, currency: "USD" as any }), "currency"],
  ["currency twd", (c) => c.paymentIntents.create({ ...intent, currency: "twd" as any }), "currency"],
  // orderId: 1 to 255 characters, no #, no control characters
  ["orderId empty", (c) => c.paymentIntents.create({ ...intent, orderId: "" }), "orderId"],
  ["orderId 256 characters", (c) => c.paymentIntents.create({ ...intent, orderId: "o".repeat(256) }), "orderId"],
  ["orderId with #", (c) => c.paymentIntents.create({ ...intent, orderId: "order#1" }), "orderId"],
  ["orderId with newline", (c) => c.paymentIntents.create({ ...intent, orderId: "order\n1" }), "orderId"],
  ["orderId with NUL", (c) => c.paymentIntents.create({ ...intent, orderId: "order\u00001" }), "orderId"],
  ["orderId with DEL", (c) => c.paymentIntents.create({ ...intent, orderId: "order\u007f" }), "orderId"],
  ["orderId with C1 control", (c) => c.paymentIntents.create({ ...intent, orderId: "order\u0085" }), "orderId"],
  ["orderId missing", (c) => c.paymentIntents.create({ ...intent, orderId: undefined as any }), "orderId"],
  // returnUrl: absolute http(s) URL
  ["returnUrl not a URL", (c) => c.paymentIntents.create({ ...intent, returnUrl: "shop.example/return" }), "returnUrl"],
  ["returnUrl relative", (c) => c.paymentIntents.create({ ...intent, returnUrl: "/return" }), "returnUrl"],
  ["returnUrl ftp", (c) => c.paymentIntents.create({ ...intent, returnUrl: "ftp://shop.example/r" }), "returnUrl"],
  ["returnUrl javascript:", (c) => c.paymentIntents.create({ ...intent, returnUrl: "javascript:alert(1)" }), "returnUrl"],
  ["returnUrl missing", (c) => c.paymentIntents.create({ ...intent, returnUrl: undefined as any }), "returnUrl"],
  // description: up to 1000 characters
  ["description 1001 characters", (c) => c.paymentIntents.create({ ...intent, description: "d".repeat(1001) }), "description"],
  // metadata: 20 pairs; key 40 of [A-Za-z0-9_]; value string of 500; 8 KB
  ["metadata 21 pairs", (c) => c.paymentIntents.create({ ...intent, metadata: pairs(21) }), "metadata"],
  ["metadata key 41 characters", (c) => c.paymentIntents.create({ ...intent, metadata: { ["k".repeat(41)]: "v" } }), `metadata.${"k".repeat(41)}`],
  ["metadata key with dash", (c) => c.paymentIntents.create({ ...intent, metadata: { "session-id": "v" } }), "metadata.session-id"],
  ["metadata key with non-ASCII letter", (c) => c.paymentIntents.create({ ...intent, metadata: { "訂單": "v" } }), "metadata.訂單"],
  ["metadata empty key", (c) => c.paymentIntents.create({ ...intent, metadata: { "": "v" } }), "metadata."],
  ["metadata value 501 characters", (c) => c.paymentIntents.create({ ...intent, metadata: { k: "v".repeat(501) } }), "metadata.k"],
  ["metadata value not a string", (c) => c.paymentIntents.create({ ...intent, metadata: { k: 5 as any } }), "metadata.k"],
  ["metadata over 8 KB (ASCII)", (c) => c.paymentIntents.create({ ...intent, metadata: pairs(17, "x".repeat(500)) }), "metadata"],
  ["metadata over 8 KB (UTF-8 bytes)", (c) => c.paymentIntents.create({ ...intent, metadata: pairs(6, "中".repeat(500)) }), "metadata"],
  ["metadata not an object", (c) => c.paymentIntents.create({ ...intent, metadata: "x" as any }), "metadata"],
  // require3ds: boolean
  ["require3ds as string", (c) => c.paymentIntents.create({ ...intent, require3ds: "yes" as any }), "require3ds"],
  // unknown parameter (a typo must not be dropped silently)
  ["unknown create parameter", (c) => c.paymentIntents.create({ ...intent, amout: 1 } as any), undefined],
  // Idempotency-Key: 1 to 255 printable ASCII
  ["idempotency key empty", (c) => c.paymentIntents.create(intent, { idempotencyKey: "" }), "idempotencyKey"],
  ["idempotency key 256 characters", (c) => c.paymentIntents.create(intent, { idempotencyKey: "k".repeat(256) }), "idempotencyKey"],
  ["idempotency key non-ASCII", (c) => c.paymentIntents.create(intent, { idempotencyKey: "訂單-1" }), "idempotencyKey"],
  ["idempotency key with newline", (c) => c.paymentIntents.create(intent, { idempotencyKey: "a\r\nX-Evil: 1" }), "idempotencyKey"],
  ["idempotency key with tab", (c) => c.paymentIntents.create(intent, { idempotencyKey: "a\tb" }), "idempotencyKey"],
  ["idempotency key with outer space", (c) => c.paymentIntents.create(intent, { idempotencyKey: " key" }), "idempotencyKey"],
  ["refund idempotency key invalid", (c) => c.refunds.create(refund, { idempotencyKey: "é" }), "idempotencyKey"],
  // list payment intents
  ["list limit 0", (c) => c.paymentIntents.list({ limit: 0 }), "limit"],
  ["list limit 101", (c) => c.paymentIntents.list({ limit: 101 }), "limit"],
  ["list limit 2.5", (c) => c.paymentIntents.list({ limit: 2.5 }), "limit"],
  ["list createdGte negative", (c) => c.paymentIntents.list({ createdGte: -1 }), "createdGte"],
  ["list createdGte fractional", (c) => c.paymentIntents.list({ createdGte: 1_760_000_000.5 }), "createdGte"],
  ["list createdLte as string", (c) => c.paymentIntents.list({ createdLte: "1760000000" as any }), "createdLte"],
  ["list createdLte in milliseconds as Date", (c) => c.paymentIntents.list({ createdLte: new Date() as any }), "createdLte"],
  ["list unknown status", (c) => c.paymentIntents.list({ status: "paid" as any }), "status"],
  ["list unknown parameter", (c) => c.paymentIntents.list({ cursor: "x" } as any), undefined],
  // update payment intent
  ["update without metadata", (c) => c.paymentIntents.update("pi_123", {} as any), "metadata"],
  ["update metadata 21 pairs", (c) => c.paymentIntents.update("pi_123", { metadata: pairs(21) }), "metadata"],
  // refunds
  ["refund without paymentIntentId", (c) => c.refunds.create({ reason: "duplicate" } as any), "paymentIntentId"],
  ["refund paymentIntentId empty", (c) => c.refunds.create({ ...refund, paymentIntentId: "" }), "paymentIntentId"],
  ["refund without reason", (c) => c.refunds.create({ paymentIntentId: "pi_123" } as any), "reason"],
  ["refund unknown reason", (c) => c.refunds.create({ ...refund, reason: "changed_mind" as any }), "reason"],
  ["refund amount 0", (c) => c.refunds.create({ ...refund, amount: 0 }), "amount"],
  ["refund amount fractional", (c) => c.refunds.create({ ...refund, amount: 10.5 }), "amount"],
  ["refund amount above any intent", (c) => c.refunds.create({ ...refund, amount: 200_001 }), "amount"],
  ["refund metadata value too long", (c) => c.refunds.create({ ...refund, metadata: { k: "v".repeat(501) } }), "metadata.k"],
  ["refund list limit 101", (c) => c.refunds.list({ limit: 101 }), "limit"],
  ["refund list bad paymentIntentId", (c) => c.refunds.list({ paymentIntentId: "../x" }), "paymentIntentId"],
  // webhook endpoints
  ["webhook create without url", (c) => c.webhookEndpoints.create({} as any), "url"],
  ["webhook create bad url", (c) => c.webhookEndpoints.create({ url: "hooks" }), "url"],
  ["webhook create no events", (c) => c.webhookEndpoints.create({ url: "https://s.example/h", enabledEvents: [] }), "enabledEvents"],
  ["webhook create unknown event", (c) => c.webhookEndpoints.create({ url: "https://s.example/h", enabledEvents: ["charge.succeeded" as any] }), "enabledEvents.0"],
  ["webhook update nothing", (c) => c.webhookEndpoints.update("we_1", {}), undefined],
  ["webhook update bad status", (c) => c.webhookEndpoints.update("we_1", { status: "paused" as any }), "status"],
  ["webhook update bad url", (c) => c.webhookEndpoints.update("we_1", { url: "mailto:x@y" }), "url"],
  // ids in paths
  ["retrieve refund bad id", (c) => c.refunds.retrieve("re_1/../../webhooks"), "id"],
  ["cancel empty id", (c) => c.paymentIntents.cancel(""), "id"],
  ["webhook logs bad id", (c) => c.webhookEndpoints.listLogs("we 1"), "id"],
  ["rotate secret bad id", (c) => c.webhookEndpoints.rotateSecret("we_1?x"), "id"],
  ["delete bad id", (c) => c.webhookEndpoints.del("%2e%2e"), "id"],
]
/* eslint-enable @typescript-eslint/no-explicit-any */

describe("local validation, before anything is sent", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    mock = createMockService()
    mock.recordEverything()
  })

  afterEach(async () => {
    await mock.close()
  })

  it.each(CASES)("%s", async (_title, call, field) => {
    const error = (await call(mock.client).catch((e) => e)) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.code).toBe("CLIENT_VALIDATION")
    expect(error.field).toBe(field)
    expect(error.status).toBeUndefined()
    expect(mock.requests).toHaveLength(0)
  })

  it("never echoes the rejected value", async () => {
    const error = await mock.client.paymentIntents
      .create({ ...intent, metadata: { card_hint: "4242424242424242".repeat(40) } })
      .catch((e) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.message).not.toContain("4242424242424242")
  })
})

describe("local validation accepts the limits themselves", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    mock = createMockService()
  })

  afterEach(async () => {
    mock.assertAllReplied()
    await mock.close()
  })

  const created = () => ok(intentData({ clientSecret: "cs" }))

  it.each([
    ["amount 1", { ...intent, amount: 1 }],
    ["amount 200000", { ...intent, amount: 200_000 }],
    ["orderId of 255 characters", { ...intent, orderId: "o".repeat(255) }],
    ["orderId of 255 astral characters (counted as characters)", { ...intent, orderId: "🛒".repeat(255) }],
    ["orderId with spaces and unicode", { ...intent, orderId: "訂單 2026-001" }],
    ["http localhost returnUrl (sandbox)", { ...intent, returnUrl: "http://localhost:8000/checkout/return?x=1" }],
    ["description of 1000 characters", { ...intent, description: "d".repeat(1000) }],
    ["20 metadata pairs", { ...intent, metadata: pairs(20) }],
    ["metadata key of 40 characters", { ...intent, metadata: { ["K_9".repeat(13) + "k"]: "v" } }],
    ["metadata value of 500 characters", { ...intent, metadata: { k: "v".repeat(500) } }],
    ["metadata of 8 KB or less", { ...intent, metadata: pairs(16, "x".repeat(500)) }],
    ["empty metadata", { ...intent, metadata: {} }],
    ["explicit TWD and require3ds", { ...intent, currency: "TWD" as const, require3ds: false }],
  ])("%s", async (_title, params) => {
    mock.on("POST", "/v1/payment-intents", created())
    await mock.client.paymentIntents.create(params)
    expect(mock.requests[0]!.body).toEqual({ currency: "TWD", ...params })
  })

  it("an idempotency key of 255 printable characters with inner spaces", async () => {
    const key = ("ab cd~!" + "x".repeat(248)).slice(0, 255)
    mock.on("POST", "/v1/refunds", ok(refundData()))
    await mock.client.refunds.create(refund, { idempotencyKey: key })
    expect(mock.requests[0]!.headers["idempotency-key"]).toBe(key)
  })

  it("list limits 1 and 100 with unix-second bounds", async () => {
    mock.on("GET", "/v1/payment-intents", ok({ items: [], hasMore: false }), ok({ items: [], hasMore: false }))
    await mock.client.paymentIntents.list({ limit: 1, createdGte: 0 })
    await mock.client.paymentIntents.list({ limit: 100, createdLte: 1_760_000_000 })
    expect(mock.requests.map((r) => r.query)).toEqual([
      { limit: "1", createdGte: "0" },
      { limit: "100", createdLte: "1760000000" },
    ])
  })
})
