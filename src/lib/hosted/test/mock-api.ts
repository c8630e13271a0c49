import { MockAgent } from "undici"
import { HostedCheckoutClient, type HostedCheckoutClientOptions } from "../hosted-client"

/** Shared fixtures for the hosted client's unit tests: a MockAgent that records every request. */

export const ORIGIN = "https://api.pay.test"
/** A path prefix, to prove paths are joined below it. */
export const BASE_URL = `${ORIGIN}/api`
export const API_TOKEN = "tok_test_7Hq2Zp9LmX4vR8sK"
export const MERCHANT = "tea-house"
export const CHECKOUT_HOST = "https://tea-house.pay.test"
/** 2026-11-22 00:30 in Taipei. */
export const NOW = new Date("2026-11-21T16:30:00Z")

/** Spec 2.2 identifier shapes. */
export const TX_ID = "Kx7Qm2Rt9Vb4Nc8Hd3Jf6Lp1Wsz" // 27 alphanumeric
export const TX_HID = "P2026112200000001" // P + yyyyMMdd + 8 = 17
export const SUB_HID = "S2026112200000007" // S + yyyyMMdd + 8 = 17
export const CARD_TOKEN = "ctok_4Yb8Xn2Qw6Er0Ty3Ui7Op"

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string>
  /** Parsed JSON body, or undefined when none was sent. */
  body: unknown
}

type Replier = { status: number; body?: unknown; text?: string; headers?: Record<string, string> }

export const ok = (data: unknown): Replier => ({ status: 200, body: { code: "S0000", data, message: "" } })
export const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}): Replier => ({
  status,
  body: { code, data: {}, message, ...extra },
})

export function mockApi(overrides: Partial<HostedCheckoutClientOptions> = {}) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const pool = agent.get(ORIGIN)
  const requests: RecordedRequest[] = []

  const client = new HostedCheckoutClient({
    apiToken: API_TOKEN,
    merchantId: MERCHANT,
    baseUrl: BASE_URL,
    checkoutHost: CHECKOUT_HOST,
    dispatcher: agent,
    retry: { maxRetries: 2, baseDelayMs: 1 },
    sleep: async () => {},
    now: () => NOW,
    ...overrides,
  })

  /** Answers `times` requests to `method path` (path below the base URL, query included). */
  function reply(method: string, path: string, answer: Replier, times = 1) {
    pool
      .intercept({ method, path: `/api${path}` })
      .reply((opts) => {
        requests.push(record(opts))
        const json = answer.body !== undefined
        return {
          statusCode: answer.status,
          data: json ? JSON.stringify(answer.body) : (answer.text ?? ""),
          responseOptions: {
            headers: { "content-type": json ? "application/json" : "text/plain", ...answer.headers },
          },
        }
      })
      .times(times)
  }

  /** Catches any request at all, so tests can prove that nothing was sent. */
  function catchAll() {
    pool
      .intercept({ method: () => true, path: () => true })
      .reply((opts) => {
        requests.push(record(opts))
        return { statusCode: 599, data: "" }
      })
      .persist()
  }

  async function close() {
    await client.close()
    await agent.close()
  }

  return { agent, client, requests, reply, catchAll, close }
}

function record(opts: { method: string; path: string; headers?: unknown; body?: unknown }): RecordedRequest {
  const headers: Record<string, string> = {}
  const raw = opts.headers
  if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length; i += 2) headers[String(raw[i]).toLowerCase()] = String(raw[i + 1])
  } else if (raw && typeof raw === "object") {
    for (const [k, v] of Object.entries(raw)) headers[k.toLowerCase()] = String(v)
  }
  const text = typeof opts.body === "string" ? opts.body : opts.body instanceof Buffer ? opts.body.toString() : undefined
  return { method: opts.method, path: opts.path, headers, body: text ? JSON.parse(text) : undefined }
}

export const ITEM = { productionCode: "TEA-500", description: "Oolong tea 500 g", quantity: 2, unit: "pack", unitPrice: 600 }

export const CHECKOUT_INPUT = {
  amount: 1200,
  orderId: "order_01JD7K",
  successUrl: "https://store.example.com/checkout/done",
  failureUrl: "https://store.example.com/checkout/failed",
  productDetails: [ITEM],
}

export const TOKEN_INPUT = {
  amount: 1200,
  orderId: "order_01JD7K",
  token: CARD_TOKEN,
  productDetails: [ITEM],
}

/** A complete transaction record as a query returns it. */
export const TRANSACTION = {
  id: TX_ID,
  transactionId: TX_ID,
  transactionHid: TX_HID,
  merchantId: MERCHANT,
  orderId: "order_01JD7K",
  status: "charged",
  amount: 1200,
  currency: "twd",
  paymentMethod: "card",
  paymentInfo: "4242",
  authCode: "A12345",
  customId: "payses_01JD7K",
  productDetails: [ITEM],
  createdAt: "2026-11-21T16:29:00.000Z",
  paidAt: "2026-11-21T16:31:00.000Z",
}
