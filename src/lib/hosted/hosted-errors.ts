import {
  AuthenticationError,
  DeclinedError,
  errorFromStatus,
  type FailedCall,
  InvalidRequestError,
  type PaymentServiceError,
  type TransportResponse,
  UnexpectedResponseError,
  UnknownOutcomeError,
} from "../http"
import { errorEnvelope } from "./schemas/hosted-envelope"

/**
 * The hosted API's failure answers (spec 2.1, 4, 7) as the typed errors of
 * `../http/http-errors`. Callers branch on the class and on `variant`, never on the
 * service's message, whose text "may change".
 */

/** Longest service message kept in an error. */
const MAX_MESSAGE = 500

const DECLINE_CODES = new Set(["T0001", "T0002", "T0003", "T0004", "T0005", "R0001"])
const INVALID_CODES = new Set(["V0001", "V0002", "K0001"])

/** The `code` of an error whose answer carried none (the firewall's 403 has a body of `{ message }` only). */
const STATUS_CODES: Record<number, string> = {
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  429: "RATE_LIMITED",
  500: "SERVER_ERROR",
}

/** Named variants are upper snake case words (`PRODUCT_AMOUNT_NOT_MATCH`); `V0001` may list several. */
const VARIANT_PATTERN = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/

/** Error for a response that is not a success: non-2xx, or a 2xx whose `code` is not `S0000`. */
export function hostedErrorFromResponse(res: TransportResponse, call: FailedCall): PaymentServiceError {
  const status = res.status
  const parsed = errorEnvelope.safeParse(res.body)
  const body = parsed.success ? parsed.data : undefined
  const serviceMessage = body?.message ?? (typeof res.body === "string" ? res.body : "")
  const text = call.redact(serviceMessage.trim().slice(0, MAX_MESSAGE))
  const describe = (code: string) => `${call.label} failed with ${code} (HTTP ${status})${text ? `: ${text}` : ""}`

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
  if (status === 400 && code) {
    return new InvalidRequestError({ code, status, message: describe(code), variant: VARIANT_PATTERN.exec(serviceMessage)?.[0] })
  }
  const init = { code: code ?? STATUS_CODES[Math.min(status, 500)] ?? "UNEXPECTED_RESPONSE", status, message: describe(code ?? "no code") }
  // 405 (plain text), 2xx with a foreign code, or any body the spec does not describe: unexpected.
  return errorFromStatus(res, call, init) ?? new UnexpectedResponseError(init)
}
