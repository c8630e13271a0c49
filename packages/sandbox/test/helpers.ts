import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type SandboxHandle, type SandboxOptions, startSandbox } from "../src/index"

/**
 * Test helpers: a sandbox on a random port spoken to over real HTTP, and a local
 * receiver that records notifications. Written against the spec, not our client.
 */

export interface ApiResult {
  status: number
  headers: Headers
  text: string
  json: Record<string, unknown> & { code?: string; data?: Record<string, unknown>; message?: string }
}

export class TestSandbox {
  constructor(readonly handle: SandboxHandle) {}

  get merchantId(): string {
    return this.handle.defaultMerchant.merchantId
  }

  get token(): string {
    return this.handle.defaultMerchant.token
  }

  /** A hosted API call with `Authorization: Bearer <token>` unless `authorization` is given. */
  async api(
    method: string,
    path: string,
    body?: unknown,
    options: { token?: string; authorization?: string | null; rawBody?: string; signal?: AbortSignal } = {}
  ): Promise<ApiResult> {
    const headers: Record<string, string> = { "content-type": "application/json" }
    const authorization = options.authorization === undefined ? `Bearer ${options.token ?? this.token}` : options.authorization
    if (authorization !== null) {
      headers.authorization = authorization
    }
    const res = await fetch(`${this.handle.hostedBaseUrl}${path}`, {
      method,
      headers,
      body: options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: options.signal,
    })
    return toResult(res)
  }

  async control(method: string, path: string, body?: unknown): Promise<ApiResult> {
    const res = await fetch(`${this.handle.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return toResult(res)
  }

  /** A page request without following redirects. */
  async page(path: string, form?: Record<string, string>): Promise<{ status: number; location: string | null; html: string }> {
    const res = await fetch(`${this.handle.checkoutHost}${path}`, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: form ? { "content-type": "application/x-www-form-urlencoded" } : {},
      body: form ? new URLSearchParams(form).toString() : undefined,
    })
    return { status: res.status, location: res.headers.get("location"), html: await res.text() }
  }

  async now(): Promise<number> {
    return Date.parse(((await this.control("GET", "/clock")).json as { now: string }).now)
  }

  /** Moves the sandbox clock and waits for everything due (0 seconds: just what is due now). */
  async advance(seconds: number): Promise<void> {
    const res = await this.control("POST", "/clock/advance", { seconds })
    expect(res.status).toBe(200)
  }

  async setClock(iso: string): Promise<void> {
    const res = await this.control("PUT", "/clock", { now: iso })
    expect(res.status).toBe(200)
  }

  async settle(): Promise<void> {
    await this.advance(0)
  }

  async patchMerchant(settings: Record<string, unknown>, merchantId = this.merchantId): Promise<void> {
    const res = await this.control("PATCH", `/merchants/${merchantId}`, settings)
    expect(res.status).toBe(200)
  }

  async createMerchant(input: Record<string, unknown>): Promise<{ merchantId: string; token: string }> {
    const res = await this.control("POST", "/merchants", input)
    expect(res.status).toBe(201)
    return res.json as unknown as { merchantId: string; token: string }
  }

  async notifications(filter: { purpose?: string; merchantId?: string } = {}): Promise<Delivery[]> {
    await this.settle()
    const query = new URLSearchParams(filter as Record<string, string>).toString()
    return (await this.control("GET", `/notifications${query ? `?${query}` : ""}`)).json.notifications as Delivery[]
  }

  /** The data of a success envelope, failing the test on anything else. */
  async ok(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
    const res = await this.api(method, path, body, { token })
    if (res.status !== 200 || res.json.code !== "S0000") {
      throw new Error(`${method} ${path} answered ${res.status} ${res.text}`)
    }
    return res.json.data as Record<string, unknown>
  }

  async transaction(id: string, token?: string): Promise<Record<string, unknown>> {
    return this.ok("GET", `/transactions/${id}`, undefined, token)
  }

  /** POST /checkout with a valid body (overrides merged) and returns its data. */
  async checkout(overrides: Record<string, unknown> = {}): Promise<{ id: string; transactionHid: string }> {
    return (await this.ok("POST", "/checkout", checkoutBody({ merchantId: this.merchantId, ...overrides }))) as {
      id: string
      transactionHid: string
    }
  }

  /** Pays a single-payment page with a card; returns the redirect. */
  async payCard(path: string, cardNumber = SUCCESS_CARD, extra: Record<string, string> = {}) {
    return this.page(path, { method: "card", cardNumber, cardExpiry: "12/39", cardCvc: "123", ...extra })
  }

  /** A paid card checkout; returns its ids. */
  async paidCheckout(overrides: Record<string, unknown> = {}, cardNumber = SUCCESS_CARD) {
    const created = await this.checkout(overrides)
    const paid = await this.payCard(`/checkout/${created.id}`, cardNumber)
    expect(paid.status).toBe(303)
    return created
  }

  /** Binds a card on the binding page and returns the token from the `token` notification. */
  async bindCard(cardNumber = SUCCESS_CARD, receiverUrl?: string): Promise<string> {
    if (receiverUrl) {
      await this.patchMerchant({ notifyUrl: receiverUrl })
    }
    const { id } = (await this.ok("POST", "/checkout-token", {
      merchantId: this.merchantId,
      successUrl: "https://shop.test/saved",
      failureUrl: "https://shop.test/not-saved",
      payerEmail: "payer@example.com",
    })) as { id: string }
    const res = await this.payCard(`/checkout/subscription/create/${id}`, cardNumber)
    expect(res.location).toBe("https://shop.test/saved")
    const tokenNotice = (await this.notifications({ purpose: "token" })).find((n) => n.body.id === id)
    return tokenNotice?.body.token as string
  }

  close(): Promise<void> {
    return this.handle.close()
  }
}

export interface Delivery {
  id: number
  merchantId: string
  purpose: string
  url: string | null
  body: Record<string, unknown>
  createdAt: string
  state: string
  fault?: string
  duplicateOf?: number
  attempts: { number: number; at: string; status?: number; error?: string; timedOut: boolean; durationMs: number }[]
}

async function toResult(res: Response): Promise<ApiResult> {
  const text = await res.text()
  let json: ApiResult["json"] = {}
  try {
    json = JSON.parse(text)
  } catch {
    // not JSON: tests look at `text`
  }
  return { status: res.status, headers: res.headers, text, json }
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  // No ticker by default: tests move the clock themselves, so nothing runs behind their back.
  return new TestSandbox(await startSandbox({ port: 0, tickMs: 0, ...options }))
}

export const SUCCESS_CARD = "4242424242424242"
export const THREE_DS_CARD = "4000000000003006"

export function product(overrides: Record<string, unknown> = {}) {
  return { productionCode: "TEA-01", description: "Oolong tea", quantity: 3, unit: "box", unitPrice: 100, ...overrides }
}

export function checkoutBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchantId: "demo-shop",
    amount: 300,
    currency: "TWD",
    orderId: "order-1",
    successUrl: "https://shop.test/ok",
    failureUrl: "https://shop.test/fail",
    productDetails: [product()],
    ...overrides,
  }
}

export interface ReceivedNotification<B = Record<string, unknown>> {
  headers: IncomingHttpHeaders
  body: B
  raw: string
  receivedAt: number
}

/**
 * A merchant's notification or webhook endpoint. `respond` decides each
 * answer: a status code, or "hang" to never answer.
 */
export class Receiver<B = Record<string, unknown>> {
  readonly received: ReceivedNotification<B>[] = []
  respond: (n: ReceivedNotification<B>, index: number) => number | "hang" = () => 200
  url = ""
  private readonly hanging = new Set<() => void>()
  private readonly server: Server

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        let body = {} as B
        try {
          body = JSON.parse(raw)
        } catch {
          // recorded as received anyway
        }
        const notice = { headers: req.headers, body, raw, receivedAt: Date.now() }
        this.received.push(notice)
        const answer = this.respond(notice, this.received.length - 1)
        if (answer === "hang") {
          this.hanging.add(() => res.destroy())
          return
        }
        res.writeHead(answer, { "content-type": "text/plain" })
        res.end(answer < 300 ? "OK" : "nope")
      })
    })
  }

  static async start<B = Record<string, unknown>>(path = "/notify"): Promise<Receiver<B>> {
    const receiver = new Receiver<B>()
    await new Promise<void>((resolve) => receiver.server.listen(0, "127.0.0.1", resolve))
    const { port } = receiver.server.address() as AddressInfo
    receiver.url = `http://127.0.0.1:${port}${path}`
    return receiver
  }

  ofPurpose(purpose: string): Record<string, unknown>[] {
    return this.received.map((n) => n.body as Record<string, unknown>).filter((body) => body.purpose === purpose)
  }

  async close(): Promise<void> {
    for (const end of this.hanging) {
      end()
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }
}

/** The Taipei instant of `hh:00` on the Taipei date `yyyy-mm-dd`, as ISO UTC. */
export function taipeiAt(date: string, hour: number, minute = 0): string {
  const [y, m, d] = date.split("-").map(Number)
  return new Date(Date.UTC(y, m - 1, d, hour - 8, minute)).toISOString()
}

export function sortedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).sort()
}
