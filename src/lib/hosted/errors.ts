import {
  AuthenticationError,
  DeclinedError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  parseRetryAfter,
  type PaymentServiceError,
  RateLimitedError,
  ServerError,
  type TransportResponse,
  UnexpectedResponseError,
  UnknownOutcomeError,
} from "../http"

/**
 * The hosted API's failure answers (spec 2.1, 4, 7) as the typed errors of
 * `../http/errors`. Callers branch on the class and on `variant`, never on the
 * service's message, whose text "may change".
 */

export interface FailedCall {
  method: string
  /** Operation label with the path template, never with values (`POST /refunds/{transactionHid}`). */
  label: string
  /** Redacts credentials and request secrets from text that goes into a message. */
  redact: (text: string) => string
}

/** Longest service message kept in an error. */
const MAX_MESSAGE = 500

const DECLINE_CODES = new Set(["T0001", "T0002", "T0003", "T0004", "T0005", "R0001"])
const INVALID_CODES = new Set(["V0001", "V0002", "K0001"])

/** Named variants are upper snake case words (`PRODUCT_AMOUNT_NOT_MATCH`); `V0001` may list several. */
const VARIANT_PATTERN = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/

interface FailureBody {
  code?: string
  message?: string
  detail?: unknown
}

function readBody(body: unknown): FailureBody | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return undefined
  }
  const record = body as Record<string, unknown>
  return {
    code: typeof record.code === "string" ? record.code : undefined,
    message: typeof record.message === "string" ? record.message : undefined,
    detail: record.detail,
  }
}

/** Error for a response that is not a success: non-2xx, or a 2xx whose `code` is not `S0000`. */
export function hostedError(res: TransportResponse, call: FailedCall): PaymentServiceError {
  const status = res.status
  const body = readBody(res.body)
  const serviceMessage = body?.message ?? (typeof res.body === "string" ? res.body : "")
  const text = call.redact(serviceMessage.trim().slice(0, MAX_MESSAGE))
  const describe = (code: string) => `${call.label} failed with ${code} (HTTP ${status})${text ? `: ${text}` : ""}`
  const isRead = call.method === "GET"

  const code = body?.code
  if (code && INVALID_CODES.has(code)) {
    return new InvalidRequestError({
      code,
      status,
      message: describe(code),
      variant: VARIANT_PATTERN.exec(serviceMessage)?.[0],
      detail: code === "K0001" ? body?.detail : undefined,
    })
  }
  if (code && DECLINE_CODES.has(code)) {
    return new DeclinedError({ code, status, message: describe(code) })
  }
  if (code === "A0001") {
    return new AuthenticationError({ code, status, message: describe(code) })
  }
  if (code === "C026") {
    // The charge may or may not exist: query, never resend (no idempotency).
    return new UnknownOutcomeError({ code, status, message: `${describe(code)}; query the transaction before retrying` })
  }
  if (code === "F0001" && /current charged amount too low/i.test(serviceMessage)) {
    // Refusal, not a system error: the domain's unpaid-out balance is below 200 TWD, nothing was refunded.
    return new InvalidRequestError({ code, status, message: describe(code), variant: "CURRENT_CHARGED_AMOUNT_TOO_LOW" })
  }

  // Unknown codes, and answers outside the envelope, go by HTTP status.
  const label = code ?? "no code"
  if (status === 401) {
    return new AuthenticationError({ code: code ?? "UNAUTHORIZED", status, message: describe(label) })
  }
  if (status === 403) {
    // The production IP allowlist: body `{ message }` only.
    return new ForbiddenError({ code: code ?? "FORBIDDEN", status, message: describe(label) })
  }
  if (status === 404) {
    return new NotFoundError({ code: code ?? "NOT_FOUND", status, message: describe(label) })
  }
  if (status === 429) {
    return new RateLimitedError({
      code: code ?? "RATE_LIMITED",
      status,
      message: describe(label),
      retryAfter: parseRetryAfter(res.headers["retry-after"]),
    })
  }
  if (status >= 500) {
    // A failed write may still have happened (no idempotency); a failed read is simply repeatable.
    return isRead
      ? new ServerError({ code: code ?? "SERVER_ERROR", status, message: describe(label) })
      : new UnknownOutcomeError({
          code: code ?? "SERVER_ERROR",
          status,
          message: `${describe(label)}; the request may have taken effect, query before retrying`,
        })
  }
  if (status === 400 && code) {
    return new InvalidRequestError({ code, status, message: describe(code), variant: VARIANT_PATTERN.exec(serviceMessage)?.[0] })
  }
  // 405 (plain text), 2xx with a foreign code, or any body the spec does not describe.
  return new UnexpectedResponseError({
    code: status === 405 ? "METHOD_NOT_ALLOWED" : (code ?? "UNEXPECTED_RESPONSE"),
    status,
    message: describe(label),
  })
}
