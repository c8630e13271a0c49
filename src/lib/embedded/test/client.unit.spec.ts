import { ConnectionError, InvalidRequestError } from "../../http"
import { EmbeddedCardClient } from "../embedded-client"
import * as embedded from "../index"
import { createMockService, intentData, ok, SECRET_KEY } from "./mock-service"

describe("EmbeddedCardClient", () => {
  it.each([
    ["a publishable key", { secretKey: "pk_" + "a".repeat(24) }, "secretKey"],
    ["a short secret key", { secretKey: "sk_short" }, "secretKey"],
    ["an empty key", { secretKey: "" }, "secretKey"],
    ["a relative base URL", { baseUrl: "/api" }, "baseUrl"],
    ["a non-http base URL", { baseUrl: "ftp://embed.example" }, "baseUrl"],
  ])("refuses %s without echoing it", (_title, override, field) => {
    let error: unknown
    try {
      new EmbeddedCardClient({ secretKey: SECRET_KEY, baseUrl: "https://embed.example", ...override })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).toMatchObject({ code: "CLIENT_VALIDATION", field })
    const value = Object.values(override)[0]!
    if (value.length >= 6) {
      expect((error as Error).message).not.toContain(value)
    }
  })

  it("does not expose the secret key through its properties, inspection or JSON", async () => {
    const client = new EmbeddedCardClient({ secretKey: SECRET_KEY, baseUrl: "https://embed.example" })
    const { inspect } = await import("node:util")
    expect(JSON.stringify(client)).not.toContain(SECRET_KEY)
    expect(inspect(client, { depth: 5, showHidden: true })).not.toContain(SECRET_KEY)
    expect(Object.values(client).some((v) => v === SECRET_KEY)).toBe(false)
    await client.close()
  })

  it("keeps the key out of its log lines", async () => {
    const lines: string[] = []
    const log = (line: string) => void lines.push(line)
    const mock = createMockService({ logger: { debug: log, info: log, warn: log, error: log } })
    mock.on("GET", "/v1/payment-intents/pi_123", ok(intentData()))
    await mock.client.paymentIntents.retrieve("pi_123")
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join("\n")).not.toContain(SECRET_KEY)
    await mock.close()
  })

  it("accepts a base URL with a path prefix and puts /v1 below it", async () => {
    const mock = createMockService({ baseUrl: "https://embed.test/embed-api/" })
    mock.on("GET", "/embed-api/v1/refunds", ok({ items: [], hasMore: false }))
    await mock.client.refunds.list()
    expect(mock.requests[0]!.path).toBe("/embed-api/v1/refunds")
    mock.assertAllReplied()
    await mock.close()
  })

  it("closes its own pool, after which calls fail without effect", async () => {
    const client = new EmbeddedCardClient({ secretKey: SECRET_KEY, baseUrl: "http://127.0.0.1:9", sleep: async () => undefined })
    await client.close()
    const error = await client.paymentIntents.retrieve("pi_1").catch((e) => e)
    expect(error).toBeInstanceOf(ConnectionError)
  })

  it("exposes the public API from the index", () => {
    expect(embedded.EmbeddedCardClient).toBe(EmbeddedCardClient)
    expect(typeof embedded.webhooks.constructEvent).toBe("function")
    expect(typeof embedded.webhooks.verifySignature).toBe("function")
    expect(typeof embedded.webhooks.signPayload).toBe("function")
    expect(typeof embedded.webhooks.parseEvent).toBe("function")
    expect(embedded.verifySignature).toBe(embedded.webhooks.verifySignature)
    expect(embedded.SIGNATURE_HEADER).toBe("Svc-Signature")
    expect(typeof embedded.schemas.createPaymentIntentParams.safeParse).toBe("function")
    expect(embedded.PAYMENT_INTENT_STATUSES).toContain("requiresAction")
  })
})
