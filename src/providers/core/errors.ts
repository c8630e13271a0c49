import { MedusaError } from "@medusajs/framework/utils"
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  DeclinedError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
  PaymentServiceError,
  RateLimitedError,
  ServerError,
  UnknownOutcomeError,
} from "../../lib/http"

/**
 * A service error as a MedusaError for the admin or the storefront. Messages of
 * `PaymentServiceError` are already redacted; anything else is reduced to its
 * class so an unexpected object cannot carry a credential into a response.
 */
export function toMedusaError(what: string, error: unknown): MedusaError {
  if (error instanceof MedusaError) {
    return error
  }
  if (!(error instanceof PaymentServiceError)) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${what} failed unexpectedly (${(error as Error)?.name ?? "error"}).`)
  }
  const message = `${what}: ${error.message}`
  if (error instanceof InvalidRequestError || error instanceof DeclinedError) {
    return new MedusaError(MedusaError.Types.NOT_ALLOWED, message)
  }
  if (error instanceof NotFoundError) {
    return new MedusaError(MedusaError.Types.NOT_FOUND, message)
  }
  if (error instanceof ConflictError || error instanceof RateLimitedError) {
    return new MedusaError(MedusaError.Types.CONFLICT, `${message} (try again shortly)`)
  }
  if (error instanceof UnknownOutcomeError) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${message}. The outcome is unknown; nothing was repeated.`)
  }
  if (error instanceof AuthenticationError || error instanceof ForbiddenError) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${message}. Check the provider's credentials and allowlist.`)
  }
  if (error instanceof ServerError || error instanceof ConnectionError) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${message} (the payment service is unreachable; try again)`)
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, message)
}
