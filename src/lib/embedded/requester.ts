import { z } from "zod"
import { ConnectionError, UnknownOutcomeError, type HttpTransport, type TransportRequest } from "../http"
import { parseResponse, validateRequest } from "../http/validate"
import { withLastResponse, type ApiResult } from "./api-result"
import { errorFromResponse } from "./errors"
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency"
import { resourceId } from "./schemas/fields"

export interface Call<T> {
  method: "GET" | "POST" | "PATCH" | "DELETE"
  path: string
  query?: TransportRequest["query"]
  body?: unknown
  /** Set on keyed creates: sent as `Idempotency-Key`, which makes the POST safe to repeat. */
  idempotencyKey?: string
  /** The whole success envelope, `{ data, requestId }`. */
  envelope: z.ZodType<{ data: T; requestId: string }>
  /** What the call is, for messages ("create payment intent"). */
  what: string
}

/**
 * Runs one API call for the resource classes: send, map failures to typed
 * errors, check the body against its schema, attach `lastResponse`.
 */
export class Requester {
  readonly #transport: HttpTransport

  constructor(transport: HttpTransport) {
    this.#transport = transport
  }

  async call<T extends object>(call: Call<T>): Promise<ApiResult<T>> {
    const { method, idempotencyKey } = call
    let res
    try {
      res = await this.#transport.request({
        method,
        path: call.path,
        query: call.query,
        body: call.body,
        headers: idempotencyKey === undefined ? undefined : { [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: idempotencyKey },
        // Reads, and writes carrying an idempotency key, can be repeated without a second effect.
        safeToRetry: method === "GET" || idempotencyKey !== undefined,
      })
    } catch (error) {
      // After several attempts of a keyed write, any one of them may have reached the
      // service, whatever the last one's failure says: the outcome is unknown.
      if (idempotencyKey !== undefined && error instanceof ConnectionError) {
        throw new UnknownOutcomeError({
          code: error.code,
          message:
            `${error.message}; the request may have taken effect:` +
            ` repeat it with the same Idempotency-Key (${idempotencyKey}) or query first`,
        })
      }
      throw error
    }

    if (res.status < 200 || res.status >= 300) {
      throw errorFromResponse(res, { method, path: call.path }, (text) => this.#transport.redact(text))
    }
    const { data, requestId } = parseResponse(call.envelope, res.body, call.what, {
      status: res.status,
      requestId: res.headers["x-request-id"],
    })
    return withLastResponse(data, {
      requestId,
      status: res.status,
      attempts: res.attempts,
      idempotencyKey,
      idempotencyReplayed: res.headers["idempotency-replayed"]?.trim().toLowerCase() === "true",
    })
  }
}

const pathId = z.object({ id: resourceId })

/** `/v1/<collection>/<id>[/<action>]`, the id checked before it goes into a path. */
export function resourcePath(collection: string, id: string, action?: string): string {
  const checked = validateRequest(pathId, { id }, "id").id
  return `/v1/${collection}/${encodeURIComponent(checked)}${action ? `/${action}` : ""}`
}
