import { z } from "zod"
import {
  AuthenticationError,
  ConflictError,
  DeclinedError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  parseRetryAfter,
  RateLimitedError,
  ServerError,
  UnexpectedResponseError,
  UnknownOutcomeError,
  type PaymentServiceError,
  type TransportResponse,
} from "../http"

/** Error envelope of spec 7: `{ error: { code, message, field }, requestId }`. */
const errorEnvelope = z.looseObject({
  error: z.looseObject({
    code: z.string().min(1),
    message: z.string().optional(),
    field: z.string().nullish(),
  }),
  requestId: z.string().optional(),
})

export interface FailedCall {
  method: string
  /** Path with query, for the message. */
  path: string
}

const QUERY_FIRST = "; the request may have taken effect, query before retrying"

/**
 * Turns a non-2xx answer into the typed error callers branch on (spec 7).
 * The class follows the HTTP status; `code` is the service's, or `HTTP_<status>`
 * when the body is not the documented envelope. `redact` scrubs the message.
 */
export function errorFromResponse(
  res: TransportResponse,
  call: FailedCall,
  redact: (text: string) => string
): PaymentServiceError {
  const parsed = errorEnvelope.safeParse(res.body)
  const envelope = parsed.success ? parsed.data : undefined
  const status = res.status
  const requestId = envelope?.requestId ?? res.headers["x-request-id"]
  const code = envelope?.error.code ?? `HTTP_${status}`
  const field = envelope?.error.field ?? undefined
  const detail = envelope?.error.message ? `: ${envelope.error.message}` : ""
  const message = redact(`${call.method} ${call.path} failed with ${status} ${code}${detail}`)
  const base = { code, status, requestId, message }

  if (status === 400 || status === 422) {
    // 422 is IDEMPOTENCY_KEY_REUSED: a caller bug, never retryable as is.
    return new InvalidRequestError({ ...base, field })
  }
  if (status === 401) {
    return new AuthenticationError(base)
  }
  if (status === 402) {
    return new DeclinedError(base)
  }
  if (status === 403) {
    if (envelope) {
      return new ForbiddenError(base)
    }
    // The firewall (spec 8) answers with its own body and no Retry-After.
    return new ForbiddenError({
      ...base,
      code: "FIREWALL_BLOCKED",
      message: redact(
        `${call.method} ${call.path} blocked by the service firewall (403, non-standard body):` +
          " too many requests from this IP or key, wait before retrying"
      ),
    })
  }
  if (status === 404) {
    return new NotFoundError(base)
  }
  if (status === 409) {
    // The service itself does not know whether the refund happened: query before anything else.
    return code === "REFUND_RECONCILIATION_REQUIRED"
      ? new UnknownOutcomeError({ ...base, message: base.message + QUERY_FIRST })
      : new ConflictError(base)
  }
  if (status === 429) {
    return new RateLimitedError({ ...base, retryAfter: parseRetryAfter(res.headers["retry-after"]) })
  }
  if (status >= 500) {
    // A read cannot have had an effect; a write (INTERNAL_ERROR, a proxy's 502) may have.
    return call.method === "GET"
      ? new ServerError(base)
      : new UnknownOutcomeError({ ...base, message: base.message + QUERY_FIRST })
  }
  if (status >= 400) {
    // Statuses the spec does not list (405, 413, ...): the request was refused as sent.
    return new InvalidRequestError({ ...base, field })
  }
  return new UnexpectedResponseError(base)
}
