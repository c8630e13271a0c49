import type { SandboxResponse } from "../server"

/**
 * The embedded API's envelopes (spec 2 and 7): success `{ data, requestId }`, failure
 * `{ error: { code, message, field }, requestId }`; `X-Request-Id` carries the same id on
 * every answer of the API (the firewall's 403 is not an API answer, see rate-limits.ts).
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request field at fault (`metadata.note`, `Idempotency-Key`), or null. */
    readonly field: string | null = null,
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }
}

export function invalid(field: string | null, message: string, code = "INVALID_REQUEST"): ApiError {
  return new ApiError(400, code, message, field)
}

export function internalError(): ApiError {
  return new ApiError(500, "INTERNAL_ERROR", "Internal error: the result is unknown; query before retrying")
}

/** What a handler produced, before it is serialised; idempotency stores the serialised form. */
export interface ApiAnswer {
  status: number
  body: string
  requestId: string
  headers: Record<string, string>
}

export function success(data: unknown, requestId: string, status = 200): ApiAnswer {
  return { status, body: JSON.stringify({ data, requestId }), requestId, headers: {} }
}

export function failure(err: ApiError, requestId: string): ApiAnswer {
  return {
    status: err.status,
    body: JSON.stringify({ error: { code: err.code, message: err.message, field: err.field }, requestId }),
    requestId,
    headers: { ...err.headers },
  }
}

export function toResponse(answer: ApiAnswer, extraHeaders: Record<string, string> = {}): SandboxResponse {
  return {
    status: answer.status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-request-id": answer.requestId,
      "cache-control": "no-store",
      ...answer.headers,
      ...extraHeaders,
    },
    body: answer.body,
  }
}
