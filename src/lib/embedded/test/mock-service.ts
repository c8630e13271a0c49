import { MockAgent, type Dispatcher } from "undici"
import { EmbeddedCardClient, type EmbeddedCardClientOptions } from "../embedded-client"

/** Test double of the embedded API on undici's MockAgent; no test file (not `*.unit.spec.ts`). */

export const SECRET_KEY = "sk_0123456789abcdefghijABCDEFGHIJ01"
export const BASE_URL = "https://embed.test"

export interface CapturedRequest {
  method: string
  /** Path with query string. */
  path: string
  pathname: string
  query: Record<string, string>
  headers: Record<string, string>
  /** Parsed JSON body, or undefined when none was sent. */
  body: unknown
}

export interface MockReply {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export function createMockService(options: Partial<EmbeddedCardClientOptions> = {}) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const pool = agent.get(BASE_URL)
  const requests: CapturedRequest[] = []
  const sleeps: number[] = []
  const client = new EmbeddedCardClient({
    secretKey: SECRET_KEY,
    baseUrl: BASE_URL,
    dispatcher: agent as Dispatcher,
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...options,
  })

  const matches = (method: string, pathname: string) => ({
    method,
    path: (path: string) => path.split("?")[0] === pathname,
  })

  /** Answers the next matching request (once per reply given, in order). */
  function on(method: string, pathname: string, ...replies: MockReply[]) {
    for (const reply of replies) {
      pool.intercept(matches(method, pathname)).reply((opts) => {
        requests.push(capture(opts))
        return {
          statusCode: reply.status,
          data: typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? ""),
          responseOptions: { headers: { "content-type": "application/json", ...reply.headers } },
        }
      })
    }
  }

  /** Makes the next `times` matching requests fail at the connection level (not captured). */
  function failConnection(method: string, pathname: string, code = "ECONNRESET", times = 1) {
    pool
      .intercept(matches(method, pathname))
      .replyWithError(Object.assign(new Error("socket hang up"), { code }))
      .times(times)
  }

  /** Records anything that reaches the network; used to prove nothing was sent. */
  function recordEverything() {
    pool
      .intercept({ method: () => true, path: () => true })
      .reply((opts) => {
        requests.push(capture(opts))
        return { statusCode: 599, data: "{}" }
      })
      .persist()
  }

  /** Every reply set up with `on` was used (the `recordEverything` catch-all excepted). */
  function assertAllReplied() {
    const pending = agent.pendingInterceptors().filter((interceptor) => !interceptor.persist)
    if (pending.length > 0) {
      throw new Error(`${pending.length} mocked repl${pending.length === 1 ? "y was" : "ies were"} never requested`)
    }
  }

  async function close() {
    await client.close()
    await agent.close()
  }

  return { agent, client, requests, sleeps, on, failConnection, recordEverything, assertAllReplied, close }
}

function capture(opts: { path: string; method: string; headers?: unknown; body?: unknown }): CapturedRequest {
  const url = new URL(opts.path, BASE_URL)
  const headers: Record<string, string> = {}
  for (const [name, value] of headerEntries(opts.headers)) {
    headers[name.toLowerCase()] = value
  }
  return {
    method: opts.method,
    path: opts.path,
    pathname: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body: typeof opts.body === "string" ? JSON.parse(opts.body) : undefined,
  }
}

function headerEntries(headers: unknown): [string, string][] {
  if (!headers) {
    return []
  }
  if (Array.isArray(headers)) {
    const out: [string, string][] = []
    for (let i = 0; i < headers.length; i += 2) {
      out.push([String(headers[i]), String(headers[i + 1])])
    }
    return out
  }
  if (typeof (headers as Headers).get === "function") {
    return [...(headers as Headers).entries()]
  }
  return Object.entries(headers as Record<string, string>)
}

// ---- fixtures ----

export const ok = (data: unknown, requestId = "req_ok_1", headers: Record<string, string> = {}): MockReply => ({
  status: 200,
  body: { data, requestId },
  headers: { "x-request-id": requestId, ...headers },
})

export const apiError = (
  status: number,
  code: string,
  options: { field?: string; message?: string; requestId?: string; headers?: Record<string, string> } = {}
): MockReply => {
  const requestId = options.requestId ?? `req_${code.toLowerCase()}`
  return {
    status,
    body: { error: { code, message: options.message ?? `${code} happened`, field: options.field ?? null }, requestId },
    headers: { "x-request-id": requestId, ...options.headers },
  }
}

export const intentData = (overrides: Record<string, unknown> = {}) => ({
  id: "pi_123",
  status: "requiresPaymentMethod",
  amount: 1500,
  currency: "TWD",
  orderId: "order_1",
  returnUrl: "https://shop.example/return",
  description: "Two mugs",
  metadata: { session_id: "payses_1" },
  require3ds: false,
  lastPaymentError: null,
  amountRefundable: 0,
  created: 1_760_000_000,
  ...overrides,
})

export const refundData = (overrides: Record<string, unknown> = {}) => ({
  id: "re_1",
  paymentIntentId: "pi_123",
  amount: 500,
  status: "pending",
  reason: "requested_by_customer",
  metadata: {},
  created: 1_760_000_100,
  ...overrides,
})

export const endpointData = (overrides: Record<string, unknown> = {}) => ({
  id: "we_1",
  url: "https://shop.example/hooks/payment",
  enabledEvents: ["payment_intent.succeeded", "refund.succeeded"],
  status: "enabled",
  created: 1_760_000_200,
  ...overrides,
})

export const WHSEC = "whsec_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4"
