import { UnexpectedResponseError } from "../../http"
import { createMockService, endpointData, ok, SECRET_KEY, WHSEC } from "./mock-service"

const NEW_SECRET = "whsec_" + "Z".repeat(48)

describe("webhookEndpoints", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    mock = createMockService()
  })

  afterEach(async () => {
    mock.assertAllReplied()
    await mock.close()
  })

  it("create POSTs url and events, returns the signing secret, sends no idempotency key", async () => {
    mock.on("POST", "/v1/webhooks", ok(endpointData({ secret: WHSEC }), "req_wc"))
    const endpoint = await mock.client.webhookEndpoints.create({
      url: "https://shop.example/hooks/payment",
      enabledEvents: ["payment_intent.succeeded", "refund.succeeded"],
    })
    const [req] = mock.requests
    expect(req!.method).toBe("POST")
    expect(req!.path).toBe("/v1/webhooks")
    expect(req!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`)
    expect(req!.headers["idempotency-key"]).toBeUndefined()
    expect(req!.body).toEqual({
      url: "https://shop.example/hooks/payment",
      enabledEvents: ["payment_intent.succeeded", "refund.succeeded"],
    })
    expect(endpoint.secret).toBe(WHSEC)
    expect(endpoint.status).toBe("enabled")
    expect(endpoint.lastResponse).toEqual({ requestId: "req_wc", status: 200, attempts: 1, idempotencyReplayed: false })
  })

  it("create requires the secret in the answer", async () => {
    mock.on("POST", "/v1/webhooks", ok(endpointData()))
    const error = await mock.client.webhookEndpoints.create({ url: "https://shop.example/h" }).catch((e) => e)
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toContain("data.secret")
  })

  it("list GETs every endpoint, without secrets", async () => {
    mock.on("GET", "/v1/webhooks", ok({ items: [endpointData(), endpointData({ id: "we_2", status: "disabled" })], hasMore: false }, "req_wl"))
    const page = await mock.client.webhookEndpoints.list()
    expect(mock.requests[0]!.method).toBe("GET")
    expect(mock.requests[0]!.path).toBe("/v1/webhooks")
    expect(page.items.map((e) => [e.id, e.status, e.secret])).toEqual([
      ["we_1", "enabled", undefined],
      ["we_2", "disabled", undefined],
    ])
    expect(page.lastResponse.requestId).toBe("req_wl")
  })

  it("retrieve GETs one endpoint", async () => {
    mock.on("GET", "/v1/webhooks/we_1", ok(endpointData(), "req_wg"))
    const endpoint = await mock.client.webhookEndpoints.retrieve("we_1")
    expect(mock.requests[0]!.method).toBe("GET")
    expect(endpoint.url).toBe("https://shop.example/hooks/payment")
    expect(endpoint.enabledEvents).toEqual(["payment_intent.succeeded", "refund.succeeded"])
    expect(endpoint.lastResponse.requestId).toBe("req_wg")
  })

  it("update PATCHes the changed fields", async () => {
    mock.on("PATCH", "/v1/webhooks/we_1", ok(endpointData({ status: "disabled" }), "req_wu"))
    const endpoint = await mock.client.webhookEndpoints.update("we_1", { status: "disabled" })
    const [req] = mock.requests
    expect(req!.method).toBe("PATCH")
    expect(req!.body).toEqual({ status: "disabled" })
    expect(endpoint.status).toBe("disabled")
    expect(endpoint.lastResponse.requestId).toBe("req_wu")
  })

  it("del DELETEs the endpoint", async () => {
    mock.on("DELETE", "/v1/webhooks/we_1", ok({ id: "we_1", deleted: true }, "req_wd"))
    const deleted = await mock.client.webhookEndpoints.del("we_1")
    expect(mock.requests[0]!.method).toBe("DELETE")
    expect(mock.requests[0]!.body).toBeUndefined()
    expect(deleted).toEqual({ id: "we_1", deleted: true })
    expect(deleted.lastResponse.requestId).toBe("req_wd")
  })

  it("del rejects an answer that does not confirm the deletion", async () => {
    mock.on("DELETE", "/v1/webhooks/we_1", ok({ id: "we_1", deleted: false }))
    await expect(mock.client.webhookEndpoints.del("we_1")).rejects.toThrow(UnexpectedResponseError)
  })

  it("listLogs GETs the delivery log", async () => {
    const logs = [
      { id: "wl_1", eventId: "evt_1", eventType: "payment_intent.succeeded", attempt: 1, responseStatus: null, error: "timeout", deliveredAt: 1_760_000_300 },
      { id: "wl_2", eventId: "evt_1", eventType: "payment_intent.succeeded", attempt: 2, responseStatus: 200, deliveredAt: 1_760_000_400 },
    ]
    mock.on("GET", "/v1/webhooks/we_1/logs", ok({ items: logs, hasMore: false }, "req_logs"))
    const page = await mock.client.webhookEndpoints.listLogs("we_1")
    expect(mock.requests[0]!.method).toBe("GET")
    expect(mock.requests[0]!.path).toBe("/v1/webhooks/we_1/logs")
    expect(page.items).toEqual(logs)
    expect(page.lastResponse.requestId).toBe("req_logs")
  })

  it("rotateSecret POSTs and returns the new secret with the old one's expiry", async () => {
    mock.on("POST", "/v1/webhooks/we_1/rotate-secret", ok(endpointData({ secret: NEW_SECRET, previousSecretExpiresAt: 1_760_086_600 }), "req_rot"))
    const rotated = await mock.client.webhookEndpoints.rotateSecret("we_1")
    const [req] = mock.requests
    expect(req!.method).toBe("POST")
    expect(req!.body).toBeUndefined()
    expect(req!.headers["idempotency-key"]).toBeUndefined()
    expect(rotated.secret).toBe(NEW_SECRET)
    expect(rotated.previousSecretExpiresAt).toBe(1_760_086_600)
    expect(rotated.lastResponse.requestId).toBe("req_rot")
  })

  it("rotateSecret requires previousSecretExpiresAt", async () => {
    mock.on("POST", "/v1/webhooks/we_1/rotate-secret", ok(endpointData({ secret: NEW_SECRET })))
    const error = await mock.client.webhookEndpoints.rotateSecret("we_1").catch((e) => e)
    expect(error).toBeInstanceOf(UnexpectedResponseError)
    expect(error.message).toContain("previousSecretExpiresAt")
    expect(error.message).not.toContain(NEW_SECRET)
  })
})
