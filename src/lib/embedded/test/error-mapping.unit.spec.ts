import {
  AuthenticationError,
  ConflictError,
  DeclinedError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnexpectedResponseError,
  UnknownOutcomeError,
  type PaymentServiceError,
  type TransportResponse,
} from "../../http"
import type { EmbeddedCardClient } from "../embedded-client"
import { embeddedErrorFromResponse } from "../embedded-errors"
import { apiError, createMockService, SECRET_KEY } from "./mock-service"

interface Endpoint {
  name: string
  method: "GET" | "POST" | "PATCH" | "DELETE"
  path: string
  call: (client: EmbeddedCardClient) => Promise<unknown>
  /** Spec-7 codes this endpoint can answer with, besides the ones every endpoint can give. */
  codes: [status: number, code: string, field?: string][]
}

const createIntent = { amount: 1500, orderId: "order_1", returnUrl: "https://shop.example/return" }

const ENDPOINTS: Endpoint[] = [
  {
    name: "paymentIntents.create",
    method: "POST",
    path: "/v1/payment-intents",
    call: (c) => c.paymentIntents.create(createIntent, { idempotencyKey: "k1" }),
    codes: [
      [400, "INVALID_AMOUNT", "amount"],
      [400, "INVALID_CURRENCY", "currency"],
      [400, "METADATA_LIMIT_EXCEEDED", "metadata"],
      [400, "MERCHANT_NOT_CONFIGURED"],
      [403, "FORBIDDEN_ORIGIN", "returnUrl"],
      [403, "DOMAIN_NOT_REGISTERED", "returnUrl"],
      [409, "IDEMPOTENCY_KEY_IN_PROGRESS"],
      [422, "IDEMPOTENCY_KEY_REUSED"],
    ],
  },
  {
    name: "paymentIntents.list",
    method: "GET",
    path: "/v1/payment-intents",
    call: (c) => c.paymentIntents.list({ limit: 5 }),
    codes: [],
  },
  {
    name: "paymentIntents.retrieve",
    method: "GET",
    path: "/v1/payment-intents/pi_1",
    call: (c) => c.paymentIntents.retrieve("pi_1"),
    codes: [[404, "PAYMENT_INTENT_NOT_FOUND"]],
  },
  {
    name: "paymentIntents.update",
    method: "PATCH",
    path: "/v1/payment-intents/pi_1",
    call: (c) => c.paymentIntents.update("pi_1", { metadata: { a: "b" } }),
    codes: [
      [400, "METADATA_LIMIT_EXCEEDED", "metadata"],
      [404, "PAYMENT_INTENT_NOT_FOUND"],
    ],
  },
  {
    name: "paymentIntents.cancel",
    method: "POST",
    path: "/v1/payment-intents/pi_1/cancel",
    call: (c) => c.paymentIntents.cancel("pi_1"),
    codes: [
      [400, "PAYMENT_INTENT_ALREADY_SUCCEEDED"],
      [400, "PAYMENT_INTENT_CANCELED"],
      [404, "PAYMENT_INTENT_NOT_FOUND"],
    ],
  },
  {
    name: "refunds.create",
    method: "POST",
    path: "/v1/refunds",
    call: (c) => c.refunds.create({ paymentIntentId: "pi_1", reason: "duplicate", amount: 100 }, { idempotencyKey: "r1" }),
    codes: [
      [400, "INVALID_AMOUNT", "amount"],
      [400, "METADATA_LIMIT_EXCEEDED", "metadata"],
      [400, "MERCHANT_NOT_CONFIGURED"],
      [400, "PAYMENT_INTENT_CANCELED"],
      [400, "REFUND_AMOUNT_EXCEEDED", "amount"],
      [400, "REFUND_WINDOW_EXPIRED"],
      [404, "PAYMENT_INTENT_NOT_FOUND", "paymentIntentId"],
      [409, "IDEMPOTENCY_KEY_IN_PROGRESS"],
      [409, "REFUND_IN_PROGRESS"],
      [409, "REFUND_RECONCILIATION_REQUIRED"],
      [422, "IDEMPOTENCY_KEY_REUSED"],
    ],
  },
  { name: "refunds.list", method: "GET", path: "/v1/refunds", call: (c) => c.refunds.list(), codes: [] },
  {
    name: "refunds.retrieve",
    method: "GET",
    path: "/v1/refunds/re_1",
    call: (c) => c.refunds.retrieve("re_1"),
    codes: [[404, "REFUND_NOT_FOUND"]],
  },
  {
    name: "webhookEndpoints.create",
    method: "POST",
    path: "/v1/webhooks",
    call: (c) => c.webhookEndpoints.create({ url: "https://shop.example/hooks" }),
    codes: [],
  },
  { name: "webhookEndpoints.list", method: "GET", path: "/v1/webhooks", call: (c) => c.webhookEndpoints.list(), codes: [] },
  ...(
    [
      ["retrieve", "GET", "/v1/webhooks/we_1", (c: EmbeddedCardClient) => c.webhookEndpoints.retrieve("we_1")],
      ["update", "PATCH", "/v1/webhooks/we_1", (c: EmbeddedCardClient) => c.webhookEndpoints.update("we_1", { status: "disabled" })],
      ["del", "DELETE", "/v1/webhooks/we_1", (c: EmbeddedCardClient) => c.webhookEndpoints.del("we_1")],
      ["listLogs", "GET", "/v1/webhooks/we_1/logs", (c: EmbeddedCardClient) => c.webhookEndpoints.listLogs("we_1")],
      ["rotateSecret", "POST", "/v1/webhooks/we_1/rotate-secret", (c: EmbeddedCardClient) => c.webhookEndpoints.rotateSecret("we_1")],
    ] as const
  ).map(([name, method, path, call]) => ({
    name: `webhookEndpoints.${name}`,
    method,
    path,
    call,
    // The spec shows no not-found code for webhook endpoints; this one is the project's choice.
    codes: [[404, "WEBHOOK_ENDPOINT_NOT_FOUND"]] as Endpoint["codes"],
  })),
]

/** Codes any backend endpoint can give. */
const COMMON: Endpoint["codes"] = [
  [400, "INVALID_REQUEST", "someField"],
  [401, "AUTH_INVALID_KEY"],
  [429, "AUTH_RATE_LIMITED"],
  [500, "INTERNAL_ERROR"],
]

function expectedClass(status: number, code: string, method: string) {
  if (status === 400 || status === 422) return InvalidRequestError
  if (status === 401) return AuthenticationError
  if (status === 402) return DeclinedError
  if (status === 403) return ForbiddenError
  if (status === 404) return NotFoundError
  if (status === 409) return code === "REFUND_RECONCILIATION_REQUIRED" ? UnknownOutcomeError : ConflictError
  if (status === 429) return RateLimitedError
  return method === "GET" ? ServerError : UnknownOutcomeError
}

const CASES = ENDPOINTS.flatMap((endpoint) =>
  [...COMMON, ...endpoint.codes].map(([status, code, field]) => ({ endpoint, status, code, field }))
)

describe("service errors (spec 7) per endpoint", () => {
  let mock: ReturnType<typeof createMockService>

  beforeEach(() => {
    // No retries here: these tests are about what one answer maps to.
    mock = createMockService({ retry: { maxRetries: 0 } })
  })

  afterEach(async () => {
    mock.assertAllReplied()
    await mock.close()
  })

  it.each(CASES.map((c) => [`${c.endpoint.name} ${c.status} ${c.code}`, c] as const))("%s", async (_title, c) => {
    const requestId = `req_${c.code.toLowerCase()}_${c.endpoint.name}`
    mock.on(
      c.endpoint.method,
      c.endpoint.path,
      apiError(c.status, c.code, { field: c.field, requestId, headers: c.status === 429 ? { "retry-after": "7" } : {} })
    )

    const error = (await c.endpoint.call(mock.client).catch((e) => e)) as PaymentServiceError
    const Expected = expectedClass(c.status, c.code, c.endpoint.method)

    expect(mock.requests).toHaveLength(1)
    expect(error).toBeInstanceOf(Expected)
    expect(error.constructor).toBe(Expected)
    expect(error.code).toBe(c.code)
    expect(error.status).toBe(c.status)
    expect(error.requestId).toBe(requestId)
    expect(error.retryable).toBe([ConflictError, RateLimitedError, ServerError].includes(Expected as never))
    expect(error.message).toContain(c.code)
    expect(error.message).not.toContain(SECRET_KEY)
    if (error instanceof InvalidRequestError) {
      expect(error.field).toBe(c.field)
    }
    if (error instanceof RateLimitedError) {
      expect(error.retryAfter).toBe(7)
    }
    if (error instanceof UnknownOutcomeError) {
      expect(error.message).toContain("query before retrying")
    }
  })

  it.each(ENDPOINTS.map((e) => [e.name, e] as const))("%s: firewall 403 with a non-standard body", async (_name, endpoint) => {
    mock.on(endpoint.method, endpoint.path, {
      status: 403,
      body: "<html><body>Access denied</body></html>",
      headers: { "content-type": "text/html" },
    })
    const error = (await endpoint.call(mock.client).catch((e) => e)) as PaymentServiceError
    expect(error).toBeInstanceOf(ForbiddenError)
    expect(error.code).toBe("FIREWALL_BLOCKED")
    expect(error.status).toBe(403)
    expect(error.retryable).toBe(false)
    expect(error.requestId).toBeUndefined()
    expect(error.message).toMatch(/firewall/)
  })
})

describe("embeddedErrorFromResponse", () => {
  const redact = (text: string) => text.split(SECRET_KEY).join("[REDACTED]")
  const call = (method: "GET" | "POST", path: string) => ({ method, label: `${method} ${path}`, redact })
  const response = (status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse => ({
    status,
    headers,
    body,
    text: typeof body === "string" ? body : JSON.stringify(body),
    attempts: 1,
  })
  const envelope = (code: string, extra: Record<string, unknown> = {}) => ({
    error: { code, message: `${code} message`, field: null },
    requestId: "req_body",
    ...extra,
  })

  it.each([
    "CARD_DECLINED",
    "CARD_NOT_SUPPORTED",
    "CARD_INSUFFICIENT_FUNDS",
    "CARD_EXPIRED",
    "CARD_INVALID_NUMBER",
    "CARD_INVALID_CVV",
    "CARD_RISK_DECLINED",
    "3DS_FAILED",
    "3DS_CANCELED",
    "3DS_TIMEOUT",
  ])("402 %s is a DeclinedError", (code) => {
    const error = embeddedErrorFromResponse(response(402, envelope(code)), call("POST", "/v1/x"))
    expect(error).toBeInstanceOf(DeclinedError)
    expect(error).toMatchObject({ code, status: 402, requestId: "req_body", retryable: false })
  })

  it("takes the request id from X-Request-Id when the body has none", () => {
    const body = { error: { code: "PAYMENT_INTENT_NOT_FOUND", message: "no" } }
    const error = embeddedErrorFromResponse(response(404, body, { "x-request-id": "req_header" }), call("GET", "/v1/x"))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(error.requestId).toBe("req_header")
  })

  it("keeps the firewall's X-Request-Id when it sends one", () => {
    const error = embeddedErrorFromResponse(response(403, "blocked", { "x-request-id": "req_fw" }), call("GET", "/v1/x"))
    expect(error).toMatchObject({ code: "FIREWALL_BLOCKED", requestId: "req_fw" })
  })

  it("maps a 403 with the standard envelope by its own code", () => {
    const error = embeddedErrorFromResponse(response(403, envelope("FORBIDDEN_ORIGIN")), call("POST", "/v1/x"))
    expect(error).toBeInstanceOf(ForbiddenError)
    expect(error.code).toBe("FORBIDDEN_ORIGIN")
  })

  it("maps a proxy's 502 page by status: unknown outcome for writes, server error for reads", () => {
    const page = "<html>Bad gateway</html>"
    const write = embeddedErrorFromResponse(response(502, page), call("POST", "/v1/refunds"))
    const read = embeddedErrorFromResponse(response(502, page), call("GET", "/v1/refunds"))
    expect(write).toBeInstanceOf(UnknownOutcomeError)
    expect(write).toMatchObject({ code: "HTTP_502", status: 502 })
    expect(read).toBeInstanceOf(ServerError)
    expect(read).toMatchObject({ code: "HTTP_502", retryable: true })
  })

  it("gives a 429 without Retry-After no retryAfter", () => {
    const error = embeddedErrorFromResponse(response(429, envelope("AUTH_RATE_LIMITED")), call("GET", "/v1/x"))
    expect(error).toBeInstanceOf(RateLimitedError)
    expect((error as RateLimitedError).retryAfter).toBeUndefined()
  })

  it("redacts a credential the service echoes in its message", () => {
    const body = { error: { code: "AUTH_INVALID_KEY", message: `key ${SECRET_KEY} is revoked` }, requestId: "r" }
    const error = embeddedErrorFromResponse(response(401, body), call("GET", "/v1/x"))
    expect(error.message).not.toContain(SECRET_KEY)
    expect(error.message).toContain("[REDACTED]")
  })

  it("redacts through the client's transport end to end", async () => {
    const mock = createMockService({ retry: { maxRetries: 0 } })
    mock.on("GET", "/v1/refunds/re_1", {
      status: 401,
      body: { error: { code: "AUTH_INVALID_KEY", message: `Bearer ${SECRET_KEY} revoked` }, requestId: "r" },
    })
    const error = await mock.client.refunds.retrieve("re_1").catch((e) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).not.toContain(SECRET_KEY)
    await mock.close()
  })

  it("treats unlisted 4xx as a refused request and other statuses as unexpected", () => {
    expect(embeddedErrorFromResponse(response(413, "too large"), call("POST", "/v1/x"))).toBeInstanceOf(
      InvalidRequestError
    )
    expect(embeddedErrorFromResponse(response(304, ""), call("GET", "/v1/x"))).toBeInstanceOf(
      UnexpectedResponseError
    )
  })
})
