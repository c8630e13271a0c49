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
import { declineCode, INVOICE_VARIANT_CODES, SHOPPER_ERROR, type ShopperErrorCode } from "./shopper-error-codes"

/**
 * A service error as a MedusaError for the admin or the storefront. Messages of
 * `PaymentServiceError` are already redacted; anything else is reduced to its
 * class so an unexpected object cannot carry a credential into a response.
 * Each carries the shopper code of its kind (`shopper-error-codes.ts`); a
 * conflict's is dropped by Medusa's error handler, which answers its own.
 */
export function toMedusaError(what: string, error: unknown): MedusaError {
  if (error instanceof MedusaError) {
    return error
  }
  if (!(error instanceof PaymentServiceError)) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${what} failed unexpectedly (${(error as Error)?.name ?? "error"}).`, SHOPPER_ERROR.payment_unavailable)
  }
  const message = `${what}: ${error.message}`
  if (error instanceof DeclinedError) {
    return new MedusaError(MedusaError.Types.NOT_ALLOWED, message, declineCode(error.code))
  }
  if (error instanceof InvalidRequestError) {
    return new MedusaError(MedusaError.Types.NOT_ALLOWED, message, refusalCode(error))
  }
  if (error instanceof NotFoundError) {
    return new MedusaError(MedusaError.Types.NOT_FOUND, message, SHOPPER_ERROR.payment_session_invalid)
  }
  if (error instanceof ConflictError || error instanceof RateLimitedError) {
    return new MedusaError(MedusaError.Types.CONFLICT, `${message} (try again shortly)`)
  }
  if (error instanceof UnknownOutcomeError) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${message}. The outcome is unknown; nothing was repeated.`, SHOPPER_ERROR.payment_outcome_unknown)
  }
  if (error instanceof AuthenticationError || error instanceof ForbiddenError) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${message}. Check the provider's credentials and allowlist.`, SHOPPER_ERROR.payment_unavailable)
  }
  if (error instanceof ServerError || error instanceof ConnectionError) {
    return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${message} (the payment service is unreachable; try again)`, SHOPPER_ERROR.payment_service_unavailable)
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, message, SHOPPER_ERROR.payment_unavailable)
}

/** What a refusal of the service (or of the client's own checks) is for a shopper. */
function refusalCode(error: InvalidRequestError): ShopperErrorCode {
  if (error.code === "K0001" || error.code === "INVALID_AMOUNT") {
    return SHOPPER_ERROR.payment_amount_over_limit
  }
  if (error.variant && INVOICE_VARIANT_CODES[error.variant]) {
    return INVOICE_VARIANT_CODES[error.variant]
  }
  if (error.variant === "LINE_PAY_NOT_ACTIVE") {
    return SHOPPER_ERROR.payment_method_not_offered
  }
  if (error.code === "CLIENT_VALIDATION") {
    return SHOPPER_ERROR.payment_data_invalid
  }
  return SHOPPER_ERROR.payment_rejected
}
