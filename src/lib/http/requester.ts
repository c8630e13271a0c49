import type { z } from "zod"
import { withLastResponse, type ApiResult } from "./api-result"
import { ConnectionError, UnknownOutcomeError, type PaymentServiceError } from "./http-errors"
import { HttpTransport, type ConnectionOptions, type TransportRequest, type TransportResponse } from "./transport"
import { parseResponse } from "./validate"

export type HttpMethod = TransportRequest["method"]

/** A call that got a failure answer, as an API's error mapper sees it. */
export interface FailedCall {
  method: HttpMethod
  /** The operation with its path template, never request values: `POST /refunds/{transactionHid}`. */
  label: string
  /** Removes the credential and the request's secrets from text bound for an error message. */
  redact: (text: string) => string
}

/** What the requester reads from a success envelope: the payload, and the request id where there is one. */
export interface Envelope {
  data: unknown
  requestId?: string
}

/**
 * Everything that differs between the two APIs: how an answer is wrapped, how
 * a failure maps to the typed errors, and the idempotency headers. Sending,
 * retries, parsing and `lastResponse` are the same for both and live in
 * `Requester`.
 */
export interface ApiProtocol {
  /** Headers on every request besides `Authorization`. */
  headers?: Readonly<Record<string, string>>
  /** Sent when the client's options name no other. */
  userAgent?: string
  /** True when the answer carries a result; every other answer goes to `errorFromResponse`. */
  isSuccess(res: TransportResponse): boolean
  /** The success envelope around a payload schema; built once per payload schema, then reused. */
  envelope(data: z.ZodType): z.ZodType<Envelope>
  /** A failure answer as the typed error callers branch on. */
  errorFromResponse(res: TransportResponse, call: FailedCall): PaymentServiceError
  /** Header names of the API's idempotency scheme; an API without one takes no `idempotencyKey`. */
  idempotency?: { keyHeader: string; replayedHeader: string }
}

export interface ApiCall<S extends z.ZodType<object>> {
  method: HttpMethod
  /** Path below the base URL; `{name}` placeholders are filled from `params`. It labels the call in messages. */
  path: string
  /** Path parameters, checked by the caller (`pathParam`); encoded here. */
  params?: Readonly<Record<string, string>>
  query?: TransportRequest["query"]
  body?: unknown
  /** Sent in the protocol's idempotency header, which makes a write safe to repeat. */
  idempotencyKey?: string
  /** Request values to keep out of logs and errors (a card token, a bank account). */
  secrets?: string[]
  /** The payload inside the success envelope. */
  data: S
}

/** Splitting on it keeps the names: `/a/{id}/b` -> `["/a/", "id", "/b"]`. */
const PLACEHOLDER = /\{(\w+)\}/

/**
 * Runs one API call for the resource classes of either client: send, map a
 * failure to a typed error, parse the envelope and the payload, attach
 * `lastResponse`. Reads, and writes carrying an idempotency key, are the only
 * calls the transport may repeat.
 */
export class Requester {
  // Holds the credential (privately, inside the transport); nothing else in a client does.
  readonly #transport: HttpTransport
  readonly #protocol: ApiProtocol
  readonly #envelopes = new WeakMap<z.ZodType, z.ZodType<Envelope>>()
  readonly #templates = new Map<string, string[]>()

  constructor(protocol: ApiProtocol, target: { baseUrl: string; credential: string }, connection: ConnectionOptions = {}) {
    this.#protocol = protocol
    this.#transport = new HttpTransport({
      baseUrl: target.baseUrl,
      credential: target.credential,
      timeouts: connection.timeouts,
      retry: connection.retry,
      dispatcher: connection.dispatcher,
      logger: connection.logger,
      sleep: connection.sleep,
      userAgent: connection.userAgent ?? protocol.userAgent,
    })
  }

  async request<S extends z.ZodType<object>>(call: ApiCall<S>): Promise<ApiResult<z.output<S>>> {
    const { method, idempotencyKey } = call
    let res: TransportResponse
    try {
      res = await this.#transport.request({
        method,
        path: call.params ? this.#fill(call.path, call.params) : call.path,
        query: call.query,
        body: call.body,
        headers: idempotencyKey === undefined ? this.#protocol.headers : this.#keyedHeaders(idempotencyKey),
        safeToRetry: method === "GET" || idempotencyKey !== undefined,
        secrets: call.secrets,
      })
    } catch (error) {
      throw idempotencyKey === undefined ? error : this.#keyedFailure(error, idempotencyKey)
    }

    const label = `${method} ${call.path}`
    if (!this.#protocol.isSuccess(res)) {
      throw this.#protocol.errorFromResponse(res, { method, label, redact: (text) => this.#transport.redact(text, call.secrets) })
    }
    const { data, requestId } = parseResponse(this.#envelope(call.data), res.body, label, {
      status: res.status,
      requestId: res.headers["x-request-id"],
    })
    const replayed = idempotencyKey === undefined ? undefined : res.headers[this.#protocol.idempotency!.replayedHeader.toLowerCase()]
    return withLastResponse(data as z.output<S>, {
      requestId,
      status: res.status,
      attempts: res.attempts,
      idempotencyKey,
      idempotencyReplayed: replayed?.trim().toLowerCase() === "true",
    })
  }

  /** Closes the connection pool (not an injected dispatcher, which its owner closes). */
  async close(): Promise<void> {
    await this.#transport.close()
  }

  /** Wrapping the payload schema once per schema: zod compiles an object schema on first use. */
  #envelope(data: z.ZodType): z.ZodType<Envelope> {
    let envelope = this.#envelopes.get(data)
    if (envelope === undefined) {
      envelope = this.#protocol.envelope(data)
      this.#envelopes.set(data, envelope)
    }
    return envelope
  }

  /** Each template is split once; filling it is then a few concatenations, on every call's path. */
  #fill(template: string, params: Readonly<Record<string, string>>): string {
    let parts = this.#templates.get(template)
    if (parts === undefined) {
      parts = template.split(PLACEHOLDER)
      this.#templates.set(template, parts)
    }
    let path = parts[0]!
    for (let i = 1; i < parts.length; i += 2) {
      const value = params[parts[i]!]
      if (value === undefined) {
        throw new TypeError(`No value for {${parts[i]}} in ${template}`)
      }
      path += encodeURIComponent(value) + parts[i + 1]
    }
    return path
  }

  #keyedHeaders(key: string): Record<string, string> {
    const scheme = this.#protocol.idempotency
    if (!scheme) {
      throw new TypeError("This API has no idempotency keys")
    }
    return { ...this.#protocol.headers, [scheme.keyHeader.toLowerCase()]: key }
  }

  /**
   * After several attempts of a keyed write, any one of them may have reached
   * the service, whatever the last one's failure says: the outcome is unknown.
   */
  #keyedFailure(error: unknown, key: string): unknown {
    if (!(error instanceof ConnectionError)) {
      return error
    }
    return new UnknownOutcomeError({
      code: error.code,
      message:
        `${error.message}; the request may have taken effect:` +
        ` repeat it with the same ${this.#protocol.idempotency!.keyHeader} (${key}) or query first`,
    })
  }
}
