import { PaymentServiceError } from "../../http"
import { WEBHOOK_EVENT_TYPES } from "../schemas/event"
import {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  parseEvent,
  readWebhookHeaders,
  RETRY_COUNT_HEADER,
  SIGNATURE_HEADER,
} from "../webhooks"
import { InvalidWebhookEventError } from "../webhook-errors"
import { intentData, refundData } from "./mock-service"

const T = 1_760_000_000

const event = (type: string, data: unknown, overrides: Record<string, unknown> = {}) => ({
  id: "evt_01",
  type,
  api_version: "2026-01-01",
  created: T,
  data,
  ...overrides,
})

const raw = (value: unknown) => Buffer.from(JSON.stringify(value))

function parseError(input: Buffer | string): InvalidWebhookEventError {
  try {
    parseEvent(input)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidWebhookEventError)
    expect(error).toBeInstanceOf(PaymentServiceError)
    return error as InvalidWebhookEventError
  }
  throw new Error("expected an InvalidWebhookEventError")
}

describe("parseEvent", () => {
  describe.each([
    ["payment_intent.created", { status: "created" }],
    ["payment_intent.requires_action", { status: "requiresAction" }],
    ["payment_intent.succeeded", { status: "succeeded", amountRefundable: 1500 }],
    ["payment_intent.failed", { status: "failed", lastPaymentError: { code: "3DS_FAILED" } }],
    ["payment_intent.canceled", { status: "canceled" }],
  ])("%s", (type, fields) => {
    it("parses into a payment-intent event", () => {
      const parsed = parseEvent(raw(event(type, intentData(fields))))
      expect(parsed.type).toBe(type)
      expect(parsed.id).toBe("evt_01")
      expect(parsed.api_version).toBe("2026-01-01")
      expect(parsed.created).toBe(T)
      if (!parsed.type.startsWith("payment_intent.")) {
        throw new Error("wrong branch")
      }
      expect(parsed.data).toMatchObject({ id: "pi_123", ...fields })
      expect(parsed.data).not.toHaveProperty("clientSecret")
    })
  })

  it("narrows the data type on `type` and exposes the failure code", () => {
    const parsed = parseEvent(raw(event("payment_intent.failed", intentData({ status: "failed", lastPaymentError: { code: "CARD_DECLINED" } }))))
    if (parsed.type === "payment_intent.failed") {
      expect(parsed.data.lastPaymentError?.code).toBe("CARD_DECLINED")
    } else {
      throw new Error("expected payment_intent.failed")
    }
  })

  describe.each([
    ["refund.created", "pending"],
    ["refund.succeeded", "succeeded"],
    ["refund.failed", "failed"],
  ])("%s", (type, status) => {
    it("parses into a refund event", () => {
      const parsed = parseEvent(raw(event(type, refundData({ status }))))
      expect(parsed.type).toBe(type)
      if (parsed.type === "refund.created" || parsed.type === "refund.succeeded" || parsed.type === "refund.failed") {
        expect(parsed.data.paymentIntentId).toBe("pi_123")
        expect(parsed.data.status).toBe(status)
      } else {
        throw new Error("wrong branch")
      }
    })
  })

  it("covers exactly the eight event types of the spec", () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual(
      [
        "payment_intent.created",
        "payment_intent.requires_action",
        "payment_intent.succeeded",
        "payment_intent.failed",
        "payment_intent.canceled",
        "refund.created",
        "refund.succeeded",
        "refund.failed",
      ].sort()
    )
  })

  it("drops a clientSecret should the service ever send one", () => {
    const parsed = parseEvent(raw(event("payment_intent.succeeded", intentData({ status: "succeeded", clientSecret: "pi_123_secret_x" }))))
    expect(parsed.data).not.toHaveProperty("clientSecret")
    expect(JSON.stringify(parsed)).not.toContain("pi_123_secret_x")
  })

  it("keeps fields it does not know", () => {
    const parsed = parseEvent(raw(event("refund.succeeded", refundData({ status: "succeeded", acquirerRef: "A1" }), { livemode: true })))
    expect((parsed as Record<string, unknown>).livemode).toBe(true)
    expect((parsed.data as Record<string, unknown>).acquirerRef).toBe("A1")
  })

  it("accepts a string and a Uint8Array view", () => {
    const json = JSON.stringify(event("refund.created", refundData()))
    expect(parseEvent(json).type).toBe("refund.created")
    const padded = Buffer.from(`xx${json}yy`)
    expect(parseEvent(new Uint8Array(padded.buffer, padded.byteOffset + 2, padded.length - 4)).type).toBe("refund.created")
  })

  describe("malformed bodies", () => {
    it.each([
      ["not JSON", Buffer.from("card=4242424242424242")],
      ["truncated JSON", Buffer.from('{"id":"evt_1","type":')],
      ["a JSON array", raw([event("refund.created", refundData())])],
      ["JSON null", Buffer.from("null")],
      ["a JSON string", raw("payment_intent.succeeded")],
      ["empty body", Buffer.alloc(0)],
    ])("%s", (_title, input) => {
      const error = parseError(input)
      expect(error.code).toBe("MALFORMED_EVENT")
      expect(error.message).not.toContain("4242")
    })

    it.each([
      ["id without evt_ prefix", { id: "pi_1" }, "id"],
      ["missing id", { id: undefined }, "id"],
      ["missing api_version", { api_version: undefined }, "api_version"],
      ["created not a number", { created: "yesterday" }, "created"],
      ["missing type", { type: undefined }, "type"],
      ["missing data", { data: undefined }, "data"],
    ])("%s", (_title, overrides, path) => {
      const error = parseError(raw(event("payment_intent.succeeded", intentData(), overrides)))
      expect(error.code).toBe("MALFORMED_EVENT")
      expect(error.message).toContain(path)
    })

    it("refund data on a payment-intent event", () => {
      const error = parseError(raw(event("payment_intent.succeeded", refundData())))
      expect(error.code).toBe("MALFORMED_EVENT")
      expect(error.message).toContain("data.")
    })

    it("payment-intent data on a refund event", () => {
      expect(parseError(raw(event("refund.succeeded", intentData()))).code).toBe("MALFORMED_EVENT")
    })

    it("data with a wrong-typed field, without echoing the value", () => {
      const error = parseError(raw(event("payment_intent.succeeded", intentData({ amount: "1500-secret-ish" }))))
      expect(error.message).toContain("data.amount")
      expect(error.message).not.toContain("secret-ish")
    })

    it("an unknown event type gets its own code, without echoing it", () => {
      const error = parseError(raw(event("charge.dispute.created", {})))
      expect(error.code).toBe("UNKNOWN_EVENT_TYPE")
      expect(error.message).not.toContain("charge.dispute")
    })
  })
})

describe("webhook headers", () => {
  it("exports the spec's header names", () => {
    expect([SIGNATURE_HEADER, EVENT_TYPE_HEADER, EVENT_ID_HEADER, RETRY_COUNT_HEADER]).toEqual([
      "Svc-Signature",
      "Svc-Event-Type",
      "Svc-Event-Id",
      "Svc-Retry-Count",
    ])
  })

  it("reads them from Node's lowercase headers", () => {
    expect(
      readWebhookHeaders({
        "svc-signature": "t=1,v1=ab",
        "svc-event-type": "refund.failed",
        "svc-event-id": "evt_9",
        "svc-retry-count": "3",
        "content-type": "application/json",
      })
    ).toEqual({ signature: "t=1,v1=ab", eventType: "refund.failed", eventId: "evt_9", retryCount: 3 })
  })

  it("reads them whatever the case, and gives retryCount 0 on a first delivery", () => {
    expect(readWebhookHeaders({ "Svc-Signature": "t=1,v1=ab", "SVC-EVENT-ID": "evt_1" })).toEqual({
      signature: "t=1,v1=ab",
      eventType: undefined,
      eventId: "evt_1",
      retryCount: 0,
    })
    expect(readWebhookHeaders({ "svc-retry-count": "lots" }).retryCount).toBe(0)
  })
})
