import { createHmac, timingSafeEqual } from "node:crypto"
import { type SandboxHandle, type SandboxOptions, startSandbox } from "../src/index"
import { type ReceivedNotification, Receiver } from "./helpers"

/**
 * Helpers for the embedded-API tests: plain `fetch` against the sandbox, a webhook
 * receiver that keeps raw bodies, and signature verification written here with
 * `node:crypto` from spec 6 alone (nothing from src is used to check signatures).
 */

export const SUCCESS_CARD = "4242424242424242"
export const THREE_DS_CARD = "4000000000003220"
export const PROCESSING_SUCCEEDS_CARD = "4000000000007700"
export const PROCESSING_FAILS_CARD = "4000000000007718"
export const PENDING_REFUND_CARD = "4000000000005506"
export const FAILING_REFUND_CARD = "4000000000005514"
export const DECLINE_CARDS: [string, string][] = [
  ["4000000000000002", "CARD_DECLINED"],
  ["4000000000000150", "CARD_NOT_SUPPORTED"],
  ["4000000000009995", "CARD_INSUFFICIENT_FUNDS"],
  ["4000000000000069", "CARD_EXPIRED"],
  ["4000000000000010", "CARD_INVALID_NUMBER"],
  ["4000000000000127", "CARD_INVALID_CVV"],
  ["4000000000004954", "CARD_RISK_DECLINED"],
]

export interface Answer {
  status: number
  headers: Headers
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any
}

export interface CallOptions {
  key?: string | null
  headers?: Record<string, string>
  rawBody?: string
  idempotencyKey?: string
}

export class EmbeddedSandbox {
  readonly pk: string
  readonly sk: string

  constructor(readonly handle: SandboxHandle) {
    this.pk = handle.embedded.publishableKey
    this.sk = handle.embedded.secretKey
  }

  get url(): string {
    return this.handle.url
  }

  async api(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Answer> {
    const key = options.key === undefined ? this.sk : options.key
    const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...options.headers }
    const payload = options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body))
    if (payload !== undefined) {
      headers["content-type"] ??= "application/json"
    }
    if (options.idempotencyKey !== undefined) {
      headers["idempotency-key"] = options.idempotencyKey
    }
    const res = await fetch(`${this.handle.embedded.baseUrl}${path}`, { method, headers, body: payload })
    return toAnswer(res)
  }

  /** The `data` of a 200, failing the test on anything else. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async ok(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<any> {
    const res = await this.api(method, path, body, options)
    if (res.status !== 200) {
      throw new Error(`${method} ${path} answered ${res.status} ${res.text}`)
    }
    return res.json.data
  }

  async control(method: string, path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${this.handle.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return toAnswer(res)
  }

  async advance(seconds: number): Promise<void> {
    const res = await this.control("POST", "/clock/advance", { seconds })
    expect(res.status).toBe(200)
  }

  async nowMs(): Promise<number> {
    return Date.parse((await this.control("GET", "/clock")).json.now)
  }

  async createIntent(overrides: Record<string, unknown> = {}, options: CallOptions = {}) {
    return this.ok("POST", "/v1/payment-intents", { amount: 1200, orderId: "order-1", returnUrl: "https://localhost/return", ...overrides }, options)
  }

  async token(number: string, options: CallOptions & { expMonth?: number; expYear?: number; cvc?: string } = {}): Promise<string> {
    const card = { number, expMonth: options.expMonth ?? 12, expYear: options.expYear ?? 2039, cvc: options.cvc ?? "123" }
    const data = await this.ok("POST", "/v1/tokens", { card }, { key: this.pk, ...options })
    return data.id as string
  }

  /** Tokenises the card and confirms with the publishable key, as the payment frame does. */
  async confirm(clientSecret: string, number: string, options: CallOptions = {}): Promise<Answer> {
    const token = await this.token(number)
    return this.api("POST", "/v1/confirm", { clientSecret, token }, { key: this.pk, ...options })
  }

  /** A created intent paid with the card; returns the intent as read afterwards. */
  async paidIntent(number = SUCCESS_CARD, overrides: Record<string, unknown> = {}) {
    const intent = await this.createIntent(overrides)
    const res = await this.confirm(intent.clientSecret, number)
    expect(res.status).toBe(200)
    return this.ok("GET", `/v1/payment-intents/${intent.id}`)
  }

  async patchEmbedded(settings: Record<string, unknown>, merchantId = "demo-shop"): Promise<Answer> {
    const res = await this.control("PATCH", `/merchants/${merchantId}/embedded`, settings)
    expect(res.status).toBe(200)
    return res
  }

  /** A fresh merchant with embed activated and its own keys; a test's changes then stay its own. */
  async merchant(merchantId: string, settings: Record<string, unknown> = {}): Promise<{ pk: string; sk: string }> {
    expect((await this.control("POST", "/merchants", { merchantId })).status).toBe(201)
    const res = await this.control("PATCH", `/merchants/${merchantId}/embedded`, { embedActive: true, allowedDomains: ["localhost", "shop.test"], ...settings })
    expect(res.status).toBe(200)
    return { pk: res.json.current.publishableKey, sk: res.json.current.secretKey }
  }

  close(): Promise<void> {
    return this.handle.close()
  }
}

async function toAnswer(res: Response): Promise<Answer> {
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    // not JSON: tests read `text`
  }
  return { status: res.status, headers: res.headers, text, json }
}

/** Limits high enough that functional tests never meet them (embedded-rate-limits.spec.ts tests them). */
export const GENEROUS_LIMITS = {
  secretPerMinute: 100_000,
  publishablePerMinutePerIp: 100_000,
  publishablePerMinutePerKey: 100_000,
  firewallPer5MinPerIp: 100_000,
  firewallPer5MinPerKey: 100_000,
}

/** A sandbox whose default merchant has generous limits (`specLimits: true` keeps the spec's). */
export async function startEmbeddedSandbox(options: SandboxOptions & { specLimits?: boolean } = {}): Promise<EmbeddedSandbox> {
  const { specLimits, ...rest } = options
  const sb = new EmbeddedSandbox(await startSandbox({ port: 0, tickMs: 0, ...rest }))
  if (!specLimits) {
    await sb.patchEmbedded({ rateLimits: GENEROUS_LIMITS })
  }
  return sb
}

/** Expects the error envelope of spec 7 with this status and code. */
export function expectError(res: Answer, status: number, code: string, field?: string | null): void {
  expect({ status: res.status, code: res.json?.error?.code }).toEqual({ status, code })
  expect(Object.keys(res.json).sort()).toEqual(["error", "requestId"])
  expect(Object.keys(res.json.error).sort()).toEqual(["code", "field", "message"])
  expect(typeof res.json.error.message).toBe("string")
  expect(res.json.requestId).toBe(res.headers.get("x-request-id"))
  if (field !== undefined) {
    expect(res.json.error.field).toBe(field)
  }
}

/** Webhook bodies are read freely in the tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReceivedWebhook = ReceivedNotification<any>
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WebhookReceiver = Receiver<any>
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const WebhookReceiver = { start: () => Receiver.start<any>("/webhooks") }

/**
 * Spec 6 verification, step by step: split out `t` and every `v1`; HMAC-SHA256 of
 * `${t}.${raw}` keyed with the whole `whsec_` string, hex; constant-time compare; any
 * match passes; `t` within 300 s of now. Returns which of the given secrets matched.
 */
export function verifySignature(header: string | string[] | undefined, raw: string, secrets: string[], nowSec = Math.floor(Date.now() / 1000)): boolean[] {
  expect(typeof header).toBe("string")
  const parts = (header as string).split(",").map((p) => p.split("="))
  const t = parts.filter(([k]) => k === "t").map(([, v]) => v)
  const v1 = parts.filter(([k]) => k === "v1").map(([, v]) => v)
  expect(t).toHaveLength(1)
  expect(Math.abs(Number(t[0]) - nowSec)).toBeLessThanOrEqual(300)
  return secrets.map((secret) => {
    const expected = Buffer.from(createHmac("sha256", secret).update(`${t[0]}.${raw}`).digest("hex"), "utf8")
    return v1.some((candidate) => {
      const given = Buffer.from(candidate, "utf8")
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
  })
}
