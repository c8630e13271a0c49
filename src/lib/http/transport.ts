import { Pool, type Dispatcher } from "undici"
import { ConnectionError, UnknownOutcomeError } from "./http-errors"
import { redact, type Logger } from "./redact"
import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelayMs, type RetryOptions } from "./retry"

export interface TimeoutOptions {
  /** TCP/TLS connect. Default 5 s. Only applies to the transport's own pool. */
  connectMs?: number
  /** Until the response headers arrive. Default 30 s. */
  headersMs?: number
  /** Maximum silence while reading the body. Default 30 s. */
  bodyMs?: number
}

/** How a client talks to its service, whatever the API: both clients' options extend this. */
export interface ConnectionOptions {
  timeouts?: TimeoutOptions
  /** Applies to requests that are safe to repeat only: reads, and writes carrying an idempotency key. */
  retry?: RetryOptions
  /** Injected dispatcher (tests, sandbox); otherwise one keep-alive pool per client. */
  dispatcher?: Dispatcher
  logger?: Logger
  userAgent?: string
  /** Injected for tests so back-off does not really wait. */
  sleep?: (ms: number) => Promise<void>
}

export interface TransportOptions extends ConnectionOptions {
  /** Base URL, may carry a path prefix (`https://api.example/v2`). */
  baseUrl: string
  /** Sent as `Authorization: Bearer <credential>`; kept in a private field and redacted everywhere. */
  credential: string
  /** Other secrets to redact (for example webhook secrets held by the same client). */
  extraSecrets?: string[]
}

export interface TransportRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** Path below the base URL, already encoded. */
  path: string
  query?: Record<string, string | number | undefined | null>
  body?: unknown
  headers?: Record<string, string>
  /** True when repeating this exact request cannot cause a second effect. */
  safeToRetry: boolean
  /** Values from this request (a card token, say) to redact from logs and errors. */
  secrets?: string[]
}

export interface TransportResponse {
  status: number
  headers: Record<string, string>
  /** Parsed JSON when the body is JSON, otherwise the text. */
  body: unknown
  text: string
  attempts: number
}

const DEFAULT_TIMEOUTS: Required<TimeoutOptions> = { connectMs: 5_000, headersMs: 30_000, bodyMs: 30_000 }

/** undici error codes that prove the request never reached the server. */
const NOT_SENT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
])

const JSON_START = /^\s*[[{]/

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * One HTTP connection to one API: keep-alive pool, timeouts, bounded retries of
 * safe requests, and redaction of credentials. API-specific error mapping lives
 * in each client; the transport only decides what a network failure means.
 */
export class HttpTransport {
  readonly #credential: string
  /** Sent with every request, as a flat `[name, value, ...]` list. */
  readonly #baseHeaders: readonly string[]
  readonly #extraSecrets: string[]
  readonly #origin: string
  readonly #basePath: string
  readonly #dispatcher: Dispatcher
  readonly #ownsDispatcher: boolean
  readonly #timeouts: Required<TimeoutOptions>
  readonly #retry: Required<RetryOptions>
  readonly #logger?: Logger
  readonly #sleep: (ms: number) => Promise<void>

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl)
    this.#origin = url.origin
    this.#basePath = url.pathname.replace(/\/+$/, "")
    this.#credential = options.credential
    // Only what the APIs require: every header is bytes to send and parse on each call.
    this.#baseHeaders = ["authorization", `Bearer ${options.credential}`, ...(options.userAgent ? ["user-agent", options.userAgent] : [])]
    this.#extraSecrets = options.extraSecrets ?? []
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
    this.#retry = { ...DEFAULT_RETRY, ...options.retry }
    this.#sleep = options.sleep ?? sleep
    this.#ownsDispatcher = !options.dispatcher
    this.#dispatcher =
      options.dispatcher ??
      new Pool(this.#origin, {
        connections: 16,
        keepAliveTimeout: 30_000,
        connect: { timeout: this.#timeouts.connectMs },
      })
    this.#logger = options.logger
  }

  /** Redacts the transport's secrets (and `more`) from a text; clients use it for error messages. */
  redact(text: string, more: string[] = []): string {
    return redact(text, [...this.#secrets(), ...more])
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const path = this.#basePath + req.path + queryString(req.query)
    // A flat [name, value, ...] list: undici handles it measurably faster than an object
    // built by spreading, and this is on every call's path.
    const headers = this.#baseHeaders.slice()
    for (const name in req.headers) {
      headers.push(name, req.headers[name])
    }
    let body: string | undefined
    if (req.body !== undefined) {
      body = JSON.stringify(req.body)
      if (!req.headers?.["content-type"]) {
        headers.push("content-type", "application/json")
      }
    }

    for (let attempt = 0; ; attempt++) {
      const started = performance.now()
      let res: Dispatcher.ResponseData
      let text: string
      try {
        res = await this.#dispatcher.request({
          origin: this.#origin,
          path,
          method: req.method,
          headers,
          body,
          headersTimeout: this.#timeouts.headersMs,
          bodyTimeout: this.#timeouts.bodyMs,
        })
        text = await res.body.text()
      } catch (error) {
        // The undici error is not kept as `cause`: it can carry the request options, headers included.
        const code = errorCode(error)
        const sent = !NOT_SENT_CODES.has(code)
        this.#log("warn", `${req.method} ${path} failed: ${code} (attempt ${attempt + 1})`, req)
        // Unsafe requests are never repeated here, not even after a refused connection:
        // the caller learns (from the error class) whether it may try again.
        if (req.safeToRetry && attempt < this.#retry.maxRetries) {
          await this.#sleep(retryDelayMs(attempt, this.#retry) ?? 0)
          continue
        }
        throw this.#networkError(req, path, code, sent)
      }

      const responseHeaders = flattenHeaders(res.headers)
      if (this.#logger) {
        const requestId = responseHeaders["x-request-id"]
        this.#log(
          "debug",
          `${req.method} ${path} -> ${res.statusCode} in ${Math.round(performance.now() - started)}ms` +
            ` (attempt ${attempt + 1}${requestId ? `, request ${requestId}` : ""})`,
          req
        )
      }
      if (req.safeToRetry && isRetryableStatus(res.statusCode) && attempt < this.#retry.maxRetries) {
        const delay = retryDelayMs(attempt, this.#retry, parseRetryAfter(responseHeaders["retry-after"]))
        if (delay !== undefined) {
          await this.#sleep(delay)
          continue
        }
      }
      return { status: res.statusCode, headers: responseHeaders, body: parseBody(text), text, attempts: attempt + 1 }
    }
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) {
      await this.#dispatcher.close()
    }
  }

  #log(level: "debug" | "warn", line: string, req: TransportRequest) {
    this.#logger?.[level](this.redact(line, req.secrets))
  }

  #secrets(): string[] {
    return [this.#credential, ...this.#extraSecrets]
  }

  #networkError(req: TransportRequest, path: string, code: string, sent: boolean) {
    const what = code.includes("TIMEOUT") ? "timed out" : `failed (${code})`
    const message = this.redact(`${req.method} ${path} ${what}`, req.secrets)
    if (sent && !req.safeToRetry) {
      return new UnknownOutcomeError({
        code: code.includes("TIMEOUT") ? "TIMEOUT" : "CONNECTION_LOST",
        message: `${message}; the request may have taken effect, query before retrying`,
      })
    }
    return new ConnectionError({ code: code.includes("TIMEOUT") ? "TIMEOUT" : "CONNECTION_FAILED", message })
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === "string" ? code : "UNKNOWN"
}

function queryString(query: TransportRequest["query"]): string {
  if (!query) {
    return ""
  }
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) {
      params.set(key, String(value))
    }
  }
  const qs = params.toString()
  return qs ? `?${qs}` : ""
}

function flattenHeaders(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key in headers) {
    const value = headers[key]
    if (value !== undefined) {
      out[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value
    }
  }
  return out
}

/** JSON when the body looks like JSON (whatever the content type claims), otherwise the text. */
function parseBody(text: string): unknown {
  if (JSON_START.test(text)) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}
