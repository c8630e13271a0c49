import {
  DECLINE_CARDS,
  type EmbeddedSandbox,
  expectError,
  startEmbeddedSandbox,
  SUCCESS_CARD,
  THREE_DS_CARD,
  verifySignature,
  WebhookReceiver,
} from "./embedded-helpers"

/**
 * Spec 6 and 8: webhook endpoints, signed delivery, retries with jitter, time-out, secret
 * rotation and the 30-day log. Every webhook any receiver got is checked against the
 * secrets its endpoint had, with node:crypto only (see verifySignature).
 */

const ALL_TYPES = [
  "payment_intent.created",
  "payment_intent.requires_action",
  "payment_intent.succeeded",
  "payment_intent.failed",
  "payment_intent.canceled",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
]
const BASE_DELAYS = [60, 300, 1800, 7200, 86400]

interface Endpoint {
  id: string
  receiver: WebhookReceiver
  /** Every secret the endpoint has had (current last). */
  secrets: string[]
}

describe("embedded webhooks", () => {
  let sb: EmbeddedSandbox
  const receivers: Endpoint[] = []

  beforeAll(async () => {
    sb = await startEmbeddedSandbox({ webhookTimeoutMs: 400 })
  })
  afterEach(async () => {
    // Every delivered webhook carries a valid signature by one of its endpoint's secrets.
    for (const { receiver, secrets } of receivers) {
      for (const hook of receiver.received) {
        expect(verifySignature(hook.headers["svc-signature"], hook.raw, secrets, Math.floor(hook.receivedAt / 1000)).some(Boolean)).toBe(true)
      }
    }
  })
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.receiver.close()))
    await sb.close()
  })

  async function endpoint(body: Record<string, unknown> = {}, key = sb.sk): Promise<Endpoint> {
    const receiver = await WebhookReceiver.start()
    const data = await sb.ok("POST", "/v1/webhooks", { url: receiver.url, ...body }, { key })
    const created = { id: data.id as string, receiver, secrets: [data.secret as string] }
    receivers.push(created)
    return created
  }
  async function disable(e: Endpoint) {
    await sb.ok("PATCH", `/v1/webhooks/${e.id}`, { status: "disabled" })
  }
  const settle = () => sb.advance(0)
  const deliveries = async (query: string) => (await sb.control("GET", `/webhook-deliveries?${query}`)).json.deliveries

  describe("endpoint management", () => {
    it("create shows the whsec_ secret once (54 characters); reads and lists never do", async () => {
      const before = Math.floor((await sb.nowMs()) / 1000)
      const res = await sb.api("POST", "/v1/webhooks", { url: "https://localhost/hooks" })
      expect(res.status).toBe(200)
      const data = res.json.data
      expect(Object.keys(data).sort()).toEqual(["created", "enabledEvents", "id", "secret", "status", "url"])
      expect(data).toMatchObject({ url: "https://localhost/hooks", status: "enabled", enabledEvents: ALL_TYPES })
      expect(data.id).toMatch(/^we_[0-9A-Za-z]{24}$/)
      expect(data.secret).toMatch(/^whsec_[0-9A-Za-z]{48}$/)
      expect(data.secret).toHaveLength(54)
      expect(data.created).toBeGreaterThanOrEqual(before)
      const read = await sb.ok("GET", `/v1/webhooks/${data.id}`)
      expect(read.secret).toBeUndefined()
      expect(read).toEqual({ id: data.id, url: data.url, enabledEvents: ALL_TYPES, status: "enabled", created: data.created })
      const list = await sb.ok("GET", "/v1/webhooks")
      expect(list.items.find((e: { id: string }) => e.id === data.id)).toEqual(read)
      expect(list.items.every((e: Record<string, unknown>) => !("secret" in e))).toBe(true)
      await sb.api("DELETE", `/v1/webhooks/${data.id}`)
    })

    it("update url, enabledEvents and status; delete -> { id, deleted: true }, then 404", async () => {
      const data = await sb.ok("POST", "/v1/webhooks", { url: "https://localhost/a", enabledEvents: ["refund.failed", "refund.failed"] })
      expect(data.enabledEvents).toEqual(["refund.failed"])
      const updated = await sb.ok("PATCH", `/v1/webhooks/${data.id}`, { url: "http://127.0.0.1:9/b", enabledEvents: ["payment_intent.succeeded"], status: "disabled" })
      expect(updated).toMatchObject({ url: "http://127.0.0.1:9/b", enabledEvents: ["payment_intent.succeeded"], status: "disabled" })
      expect(updated.secret).toBeUndefined()
      expect(await sb.ok("PATCH", `/v1/webhooks/${data.id}`, {})).toEqual(updated)
      expect(await sb.ok("DELETE", `/v1/webhooks/${data.id}`)).toEqual({ id: data.id, deleted: true })
      for (const [method, path] of [
        ["GET", ""],
        ["PATCH", ""],
        ["DELETE", ""],
        ["GET", "/logs"],
        ["POST", "/rotate-secret"],
      ]) {
        expectError(await sb.api(method, `/v1/webhooks/${data.id}${path}`, method === "PATCH" ? {} : undefined), 404, "WEBHOOK_ENDPOINT_NOT_FOUND")
      }
    })

    it("refuses bad bodies", async () => {
      const bad: [Record<string, unknown>, string | null][] = [
        [{}, "url"],
        [{ url: "http://hooks.example/x" }, "url"],
        [{ url: "not a url" }, "url"],
        [{ url: "https://localhost/x", enabledEvents: [] }, "enabledEvents"],
        [{ url: "https://localhost/x", enabledEvents: ["payment_intent.paid"] }, "enabledEvents"],
        [{ url: "https://localhost/x", enabledEvents: "refund.failed" }, "enabledEvents"],
        [{ url: "https://localhost/x", secret: "whsec_mine" }, "secret"],
      ]
      for (const [body, field] of bad) {
        expectError(await sb.api("POST", "/v1/webhooks", body), 400, "INVALID_REQUEST", field)
      }
      const data = await sb.ok("POST", "/v1/webhooks", { url: "https://hooks.example/x" })
      expectError(await sb.api("PATCH", `/v1/webhooks/${data.id}`, { status: "paused" }), 400, "INVALID_REQUEST", "status")
      expectError(await sb.api("PATCH", `/v1/webhooks/${data.id}`, { url: "ftp://localhost/x" }), 400, "INVALID_REQUEST", "url")
      await sb.api("DELETE", `/v1/webhooks/${data.id}`)
    })

    it("a merchant has at most 16 endpoints; lists page newest first", async () => {
      const keys = await sb.merchant("many-hooks")
      const ids: string[] = []
      for (let i = 0; i < 16; i++) {
        ids.push((await sb.ok("POST", "/v1/webhooks", { url: `https://localhost/h${i}` }, { key: keys.sk })).id)
      }
      expectError(await sb.api("POST", "/v1/webhooks", { url: "https://localhost/h17" }, { key: keys.sk }), 400, "INVALID_REQUEST", null)
      const page = await sb.ok("GET", "/v1/webhooks?limit=3", undefined, { key: keys.sk })
      expect(page).toMatchObject({ hasMore: true })
      expect(page.items.map((e: { id: string }) => e.id)).toEqual(ids.slice(-3).reverse())
      expect((await sb.ok("GET", "/v1/webhooks?limit=100", undefined, { key: keys.sk })).items).toHaveLength(16)
    })
  })

  describe("delivery", () => {
    it("POSTs the signed event with the spec's headers; body { id, type, api_version, created, data } without clientSecret", async () => {
      const e = await endpoint()
      const intent = await sb.createIntent({ amount: 880, metadata: { session: "ps_1" } })
      await settle()
      expect(e.receiver.received).toHaveLength(1)
      const [hook] = e.receiver.received
      expect(hook.headers["content-type"]).toBe("application/json")
      expect(hook.headers["svc-event-type"]).toBe("payment_intent.created")
      expect(hook.headers["svc-event-id"]).toBe(hook.body.id)
      expect(hook.headers["svc-retry-count"]).toBeUndefined()
      expect(hook.headers["svc-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(verifySignature(hook.headers["svc-signature"], hook.raw, e.secrets)).toEqual([true])
      // a different secret or a re-serialised body do not verify
      expect(verifySignature(hook.headers["svc-signature"], hook.raw, [`whsec_${"0".repeat(48)}`])).toEqual([false])
      expect(verifySignature(hook.headers["svc-signature"], JSON.stringify(hook.body, null, 1), e.secrets)).toEqual([false])
      expect(Object.keys(hook.body).sort()).toEqual(["api_version", "created", "data", "id", "type"])
      expect(hook.body.id).toMatch(/^evt_[0-9A-Za-z]{24}$/)
      expect(hook.body.type).toBe("payment_intent.created")
      expect(hook.body.api_version).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(hook.body.created).toBe(intent.created)
      const { clientSecret: _secret, ...withoutSecret } = intent
      expect(hook.body.data).toEqual(withoutSecret)
      expect(hook.raw).not.toContain("_secret_")
      await disable(e)
    })

    it("sends every intent and refund event type with the resource at event time", async () => {
      const e = await endpoint()
      const paid = await sb.createIntent({ amount: 600 })
      await sb.confirm(paid.clientSecret, SUCCESS_CARD)
      await sb.api("POST", "/v1/refunds", { paymentIntentId: paid.id, reason: "duplicate", amount: 100 })
      const declined = await sb.createIntent()
      await sb.confirm(declined.clientSecret, DECLINE_CARDS[1][0])
      const challenged = await sb.createIntent()
      await sb.confirm(challenged.clientSecret, THREE_DS_CARD)
      await sb.api("POST", `/v1/payment-intents/${challenged.id}/cancel`)
      await settle()
      const byType = (type: string) => e.receiver.received.filter((h) => h.body.type === type).map((h) => h.body.data)
      expect(byType("payment_intent.succeeded")).toEqual([expect.objectContaining({ id: paid.id, status: "succeeded", amountRefundable: 600 })])
      expect(byType("refund.created")).toEqual([expect.objectContaining({ paymentIntentId: paid.id, amount: 100, status: "succeeded", reason: "duplicate" })])
      expect(Object.keys(byType("refund.succeeded")[0]).sort()).toEqual(["amount", "created", "failureCode", "id", "metadata", "paymentIntentId", "reason", "status"])
      expect(byType("payment_intent.failed")).toEqual([expect.objectContaining({ id: declined.id, lastPaymentError: expect.objectContaining({ code: "CARD_NOT_SUPPORTED" }) })])
      expect(byType("payment_intent.requires_action")).toEqual([expect.objectContaining({ id: challenged.id, status: "requiresAction" })])
      expect(byType("payment_intent.canceled")).toEqual([expect.objectContaining({ id: challenged.id, status: "canceled" })])
      expect(new Set(e.receiver.received.map((h) => h.body.id)).size).toBe(e.receiver.received.length)
      await disable(e)
    })

    it("only enabled endpoints with the type enabled, and only the merchant's own endpoints, receive an event", async () => {
      const all = await endpoint()
      const onlySucceeded = await endpoint({ enabledEvents: ["payment_intent.succeeded"] })
      const off = await endpoint()
      await disable(off)
      const other = await sb.merchant("hooks-other")
      const foreign = await endpoint({}, other.sk)
      const intent = await sb.createIntent()
      await sb.confirm(intent.clientSecret, SUCCESS_CARD)
      await settle()
      expect(all.receiver.received.map((h) => h.body.type)).toEqual(["payment_intent.created", "payment_intent.succeeded"])
      expect(onlySucceeded.receiver.received.map((h) => h.body.type)).toEqual(["payment_intent.succeeded"])
      expect(off.receiver.received).toEqual([])
      expect(foreign.receiver.received).toEqual([])
      // one event, the same id and bytes at every endpoint
      const succeeded = all.receiver.received[1]
      expect(onlySucceeded.receiver.received[0].raw).toBe(succeeded.raw)
      await disable(all)
      await disable(onlySucceeded)
    })

    it("non-2xx: 5 retries about 1 min, 5 min, 30 min, 2 h, 24 h apart (+-20 %), same event id and body, Svc-Retry-Count 1-5", async () => {
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      e.receiver.respond = (_h, i) => (i % 2 === 0 ? 500 : 302)
      await sb.createIntent()
      await sb.advance(3 * 24 * 3600)
      const hooks = e.receiver.received
      expect(hooks).toHaveLength(6)
      expect(new Set(hooks.map((h) => h.headers["svc-event-id"])).size).toBe(1)
      expect(new Set(hooks.map((h) => h.raw)).size).toBe(1)
      expect(hooks.map((h) => h.headers["svc-retry-count"])).toEqual([undefined, "1", "2", "3", "4", "5"])
      const [delivery] = await deliveries(`endpointId=${e.id}`)
      expect(delivery.state).toBe("failed")
      expect(delivery.attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([500, 302, 500, 302, 500, 302])
      const times = delivery.attempts.map((a: { attemptedAt: string }) => Date.parse(a.attemptedAt))
      for (let i = 0; i < 5; i++) {
        const gapSec = (times[i + 1] - times[i]) / 1000
        expect(gapSec).toBeGreaterThanOrEqual(BASE_DELAYS[i] * 0.8)
        expect(gapSec).toBeLessThanOrEqual(BASE_DELAYS[i] * 1.2)
      }
      await sb.advance(7 * 24 * 3600)
      expect(hooks).toHaveLength(6)
      await disable(e)
    })

    it("the retry delays vary at random within +-20 % (not a fixed schedule)", async () => {
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      e.receiver.respond = () => 503
      for (let i = 0; i < 6; i++) {
        await sb.createIntent()
      }
      await sb.advance(0)
      await sb.advance(90)
      const gaps = (await deliveries(`endpointId=${e.id}`)).map((d: { attempts: { attemptedAt: string }[] }) => (Date.parse(d.attempts[1].attemptedAt) - Date.parse(d.attempts[0].attemptedAt)) / 1000)
      expect(gaps).toHaveLength(6)
      for (const gap of gaps) {
        expect(gap).toBeGreaterThanOrEqual(48)
        expect(gap).toBeLessThanOrEqual(72)
      }
      expect(new Set(gaps).size).toBeGreaterThan(1)
      await disable(e)
    })

    it("a retry that gets 2xx ends the delivery", async () => {
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      e.receiver.respond = (_h, i) => (i === 0 ? 500 : 204)
      await sb.createIntent()
      await sb.advance(2 * 60)
      await sb.advance(24 * 3600)
      expect(e.receiver.received).toHaveLength(2)
      const [delivery] = await deliveries(`endpointId=${e.id}`)
      expect(delivery.state).toBe("delivered")
      await disable(e)
    })

    it("no answer within the time-out (start option webhookTimeoutMs, here 400 ms) fails the attempt", async () => {
      expect(sb.handle.embedded.webhookTimeoutMs).toBe(400)
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      e.receiver.respond = (_h, i) => (i === 0 ? "hang" : 200)
      await sb.createIntent()
      const started = Date.now()
      await settle()
      expect(Date.now() - started).toBeGreaterThanOrEqual(380)
      let [delivery] = await deliveries(`endpointId=${e.id}`)
      expect(delivery.state).toBe("pending")
      expect(delivery.attempts[0]).toMatchObject({ attempt: 1, responseStatus: null, timedOut: true, error: expect.stringMatching(/timeout/) })
      await sb.advance(80)
      ;[delivery] = await deliveries(`endpointId=${e.id}`)
      expect(delivery.state).toBe("delivered")
      expect(delivery.attempts[1]).toMatchObject({ attempt: 2, responseStatus: 200 })
      await disable(e)
    })

    it("a deleted or disabled endpoint gets no more retries", async () => {
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      e.receiver.respond = () => 500
      await sb.createIntent()
      await settle()
      await sb.api("DELETE", `/v1/webhooks/${e.id}`)
      await sb.advance(3600)
      expect(e.receiver.received).toHaveLength(1)
      const [delivery] = await deliveries(`endpointId=${e.id}`)
      expect(delivery).toMatchObject({ state: "abandoned", abandonedReason: "endpoint deleted" })
    })

    it("rotate-secret: new secret + previousSecretExpiresAt (+24 h); for 24 h two v1 parts (new and old), then one", async () => {
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      const now = Math.floor((await sb.nowMs()) / 1000)
      const rotated = await sb.ok("POST", `/v1/webhooks/${e.id}/rotate-secret`)
      expect(Object.keys(rotated).sort()).toEqual(["created", "enabledEvents", "id", "previousSecretExpiresAt", "secret", "status", "url"])
      expect(rotated.secret).toMatch(/^whsec_[0-9A-Za-z]{48}$/)
      expect(rotated.secret).not.toBe(e.secrets[0])
      expect(rotated.previousSecretExpiresAt - now).toBeGreaterThanOrEqual(24 * 3600)
      expect(rotated.previousSecretExpiresAt - now).toBeLessThanOrEqual(24 * 3600 + 2)
      e.secrets.push(rotated.secret)
      await sb.createIntent()
      await settle()
      const during = e.receiver.received.at(-1)!
      expect(during.headers["svc-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/)
      expect(verifySignature(during.headers["svc-signature"], during.raw, [rotated.secret, e.secrets[0]])).toEqual([true, true])
      expect((await sb.ok("GET", `/v1/webhooks/${e.id}`)).secret).toBeUndefined()
      await sb.advance(24 * 3600 + 2)
      await sb.createIntent()
      await settle()
      const after = e.receiver.received.at(-1)!
      expect(after.headers["svc-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(verifySignature(after.headers["svc-signature"], after.raw, [rotated.secret, e.secrets[0]])).toEqual([true, false])
      await disable(e)
    })

    it("logs: one item per attempt, newest first, kept 30 days; the control log shows the headers sent", async () => {
      const e = await endpoint({ enabledEvents: ["payment_intent.created"] })
      e.receiver.respond = (_h, i) => (i === 0 ? 500 : 200)
      await sb.createIntent()
      await sb.advance(2 * 60)
      const logs = await sb.ok("GET", `/v1/webhooks/${e.id}/logs`)
      expect(logs.hasMore).toBe(false)
      expect(logs.items).toHaveLength(2)
      const [second, first] = logs.items
      expect(Object.keys(first).sort()).toEqual(["attempt", "deliveredAt", "error", "eventId", "eventType", "id", "responseStatus"])
      expect(first).toMatchObject({ attempt: 1, responseStatus: 500, eventType: "payment_intent.created", error: "HTTP 500" })
      expect(Object.keys(second).sort()).toEqual(["attempt", "deliveredAt", "eventId", "eventType", "id", "responseStatus"])
      expect(second).toMatchObject({ attempt: 2, responseStatus: 200, eventId: first.eventId })
      expect(second.deliveredAt).toBeGreaterThan(first.deliveredAt)
      expect((await sb.ok("GET", `/v1/webhooks/${e.id}/logs?limit=1`)).hasMore).toBe(true)
      const [delivery] = await deliveries(`endpointId=${e.id}`)
      expect(delivery.attempts[1].requestHeaders).toMatchObject({
        "content-type": "application/json",
        "svc-event-id": first.eventId,
        "svc-event-type": "payment_intent.created",
        "svc-retry-count": "1",
        "svc-signature": e.receiver.received[1].headers["svc-signature"],
      })
      await sb.advance(30 * 24 * 3600 - 200)
      expect((await sb.ok("GET", `/v1/webhooks/${e.id}/logs`)).items).toHaveLength(2)
      await sb.advance(300)
      expect((await sb.ok("GET", `/v1/webhooks/${e.id}/logs`)).items).toHaveLength(0)
      expect(await deliveries(`endpointId=${e.id}`)).toEqual([])
      await disable(e)
    })
  })
})
