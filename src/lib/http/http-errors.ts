/**
 * Typed errors shared by both API clients. Callers branch on the class (or
 * `retryable`), never on message text. Messages are redacted before they are
 * built, so no credential can reach a log line through an error.
 */

export interface PaymentServiceErrorInit {
  message: string
  /** The service's code (`V0001`, `CARD_DECLINED`, ...) or a local one (`CLIENT_VALIDATION`, `TIMEOUT`). */
  code: string
  /** HTTP status when a response was received. */
  status?: number
  /** The service's request id, where the API gives one (embedded `X-Request-Id`). */
  requestId?: string
  cause?: unknown
}

export class PaymentServiceError extends Error {
  readonly code: string
  readonly status?: number
  readonly requestId?: string
  /** True when sending the very same request again later is safe and may succeed. */
  readonly retryable: boolean = false

  constructor(init: PaymentServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.code = init.code
    this.status = init.status
    this.requestId = init.requestId
  }
}

/**
 * The request broke a rule: a local zod check before sending, or the service's
 * 400/422. `variant` is the hosted API's named variant (`PRODUCT_AMOUNT_NOT_MATCH`),
 * `field` the embedded API's offending field.
 */
export class InvalidRequestError extends PaymentServiceError {
  readonly variant?: string
  readonly field?: string
  /** Extra detail the service attached (hosted `K0001`). */
  readonly detail?: unknown

  constructor(init: PaymentServiceErrorInit & { variant?: string; field?: string; detail?: unknown }) {
    super(init)
    this.variant = init.variant
    this.field = init.field
    this.detail = init.detail
  }
}

/** Wrong, revoked or regenerated key/token (401). */
export class AuthenticationError extends PaymentServiceError {}

/** IP allowlist, origin/domain list or firewall (403). */
export class ForbiddenError extends PaymentServiceError {}

/** The payment itself was refused: card, 3-D Secure, or the acquirer refusing a refund. */
export class DeclinedError extends PaymentServiceError {}

export class RateLimitedError extends PaymentServiceError {
  override readonly retryable = true
  /** Seconds to wait, from `Retry-After`, when the service sent one. */
  readonly retryAfter?: number

  constructor(init: PaymentServiceErrorInit & { retryAfter?: number }) {
    super(init)
    this.retryAfter = init.retryAfter
  }
}

/** The same operation is already running (idempotency key or refund in progress). */
export class ConflictError extends PaymentServiceError {
  override readonly retryable = true
}

export class NotFoundError extends PaymentServiceError {}

/**
 * The request may or may not have taken effect: hosted `C026`, embedded
 * `REFUND_RECONCILIATION_REQUIRED` / `INTERNAL_ERROR`, a 5xx or a time-out
 * after a non-idempotent send. Never resend blindly: query first.
 */
export class UnknownOutcomeError extends PaymentServiceError {}

/** A 5xx answer to a request that is safe to repeat (a read), after retries ran out. */
export class ServerError extends PaymentServiceError {
  override readonly retryable = true
}

/** No usable answer, and the request is known to have had no effect (or is safe to repeat). */
export class ConnectionError extends PaymentServiceError {
  override readonly retryable = true
}

/** The service answered, but not in the documented shape. */
export class UnexpectedResponseError extends PaymentServiceError {}
