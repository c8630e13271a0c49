import { PaymentServiceError } from "../http"

export type WebhookSignatureErrorCode =
  | "SIGNATURE_HEADER_MISSING"
  | "SIGNATURE_HEADER_MALFORMED"
  | "SIGNATURE_MISMATCH"
  | "SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE"

/**
 * The webhook is not provably from the service: answer 400 and do nothing.
 * Messages never contain secrets, signatures or the body.
 */
export class WebhookSignatureError extends PaymentServiceError {
  declare readonly code: WebhookSignatureErrorCode

  constructor(code: WebhookSignatureErrorCode, message: string) {
    super({ code, message })
  }
}

export type InvalidWebhookEventErrorCode = "MALFORMED_EVENT" | "UNKNOWN_EVENT_TYPE"

/**
 * A signed body that is not a webhook event we understand. `UNKNOWN_EVENT_TYPE`
 * is a well-formed event of a type this version does not know: acknowledge and
 * ignore it rather than make the service retry.
 */
export class InvalidWebhookEventError extends PaymentServiceError {
  declare readonly code: InvalidWebhookEventErrorCode

  constructor(code: InvalidWebhookEventErrorCode, message: string) {
    super({ code, message })
  }
}
