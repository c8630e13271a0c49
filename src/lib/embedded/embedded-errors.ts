import {
  ConflictError,
  DeclinedError,
  errorFromStatus,
  type FailedCall,
  ForbiddenError,
  InvalidRequestError,
  type PaymentServiceError,
  QUERY_FIRST,
  type TransportResponse,
  UnexpectedResponseError,
  UnknownOutcomeError,
} from "../http"
import { errorEnvelope } from "./schemas/embedded-envelope"

/**
 * Turns a non-2xx answer into the typed error callers branch on (spec 7).
 * The class follows the HTTP status; `code` is the service's, or `HTTP_<status>`
 * when the body is not the documented envelope.
 */
export function embeddedErrorFromResponse(res: TransportResponse, call: FailedCall): PaymentServiceError {
  const parsed = errorEnvelope.safeParse(res.body)
  const envelope = parsed.success ? parsed.data : undefined
  const status = res.status
  const requestId = envelope?.requestId ?? res.headers["x-request-id"]
  const code = envelope?.error.code ?? `HTTP_${status}`
  const field = envelope?.error.field ?? undefined
  const detail = envelope?.error.message ? `: ${envelope.error.message}` : ""
  const redact = call.redact
  const message = redact(`${call.label} failed with ${status} ${code}${detail}`)
  const base = { code, status, requestId, message }

  if (status === 400 || status === 422) {
    // 422 is IDEMPOTENCY_KEY_REUSED: a caller bug, never retryable as is.
    return new InvalidRequestError({ ...base, field })
  }
  if (status === 402) {
    return new DeclinedError(base)
  }
  if (status === 403 && !envelope) {
    // The firewall (spec 8) answers with its own body and no Retry-After.
    return new ForbiddenError({
      ...base,
      code: "FIREWALL_BLOCKED",
      message: redact(
        `${call.label} blocked by the service firewall (403, non-standard body):` +
          " too many requests from this IP or key, wait before retrying"
      ),
    })
  }
  if (status === 409) {
    // The service itself does not know whether the refund happened: query before anything else.
    return code === "REFUND_RECONCILIATION_REQUIRED"
      ? new UnknownOutcomeError({ ...base, message: base.message + QUERY_FIRST })
      : new ConflictError(base)
  }
  // 401, 403, 404, 429, and 5xx (INTERNAL_ERROR on a write, a proxy's 502) mean what they mean in any API;
  // other 4xx the spec does not list (405, 413, ...) refused the request as sent.
  return errorFromStatus(res, call, base) ?? (status >= 400 ? new InvalidRequestError({ ...base, field }) : new UnexpectedResponseError(base))
}
