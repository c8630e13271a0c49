import {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  type PaymentServiceError,
  type PaymentServiceErrorInit,
  RateLimitedError,
  ServerError,
  UnknownOutcomeError,
} from "./http-errors"
import type { FailedCall } from "./requester"
import { parseRetryAfter } from "./retry"
import type { TransportResponse } from "./transport"

/** Appended to the message of every error whose request may have taken effect. */
export const QUERY_FIRST = "; the request may have taken effect, query before retrying"

/**
 * The typed error that an HTTP status means in both APIs alike: 401, 403, 404,
 * 429 and 5xx. Undefined for any other status, which only the API's own mapper
 * can read. Each API's `...ErrorFromResponse` handles its own codes first and
 * falls back on this.
 */
export function errorFromStatus(res: TransportResponse, call: FailedCall, init: PaymentServiceErrorInit): PaymentServiceError | undefined {
  const status = res.status
  if (status === 401) {
    return new AuthenticationError(init)
  }
  if (status === 403) {
    return new ForbiddenError(init)
  }
  if (status === 404) {
    return new NotFoundError(init)
  }
  if (status === 429) {
    return new RateLimitedError({ ...init, retryAfter: parseRetryAfter(res.headers["retry-after"]) })
  }
  if (status >= 500) {
    // A read cannot have had an effect, so it is repeatable; a write may have happened.
    return call.method === "GET" ? new ServerError(init) : new UnknownOutcomeError({ ...init, message: init.message + QUERY_FIRST })
  }
  return undefined
}
