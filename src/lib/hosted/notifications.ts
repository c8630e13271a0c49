import { PaymentServiceError } from "../http"
import { describeIssues } from "../http/validate"
import { type HostedNotification, NOTIFICATION_PURPOSES, NOTIFICATION_SCHEMAS, type NotificationPurpose } from "./schemas/notification"

/**
 * Parsing of the service's notifications (spec 6). They are unsigned, so a
 * parsed notification is only a hint: re-read the transaction before acting.
 */

/** A body that is not a notification of the documented shape. Names fields, never values. */
export class InvalidNotificationError extends PaymentServiceError {
  constructor(message: string) {
    super({ code: "INVALID_NOTIFICATION", message })
  }
}

/**
 * Parses a notification body: the raw request body (Buffer or JSON text) or an
 * already-parsed object. The result is discriminated by `purpose`.
 */
export function parseNotification(body: unknown): HostedNotification {
  const value = Buffer.isBuffer(body) || typeof body === "string" ? parseJson(body.toString()) : body
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidNotificationError("Invalid notification: body is not a JSON object")
  }
  const purpose = (value as { purpose?: unknown }).purpose
  if (typeof purpose !== "string" || !Object.hasOwn(NOTIFICATION_SCHEMAS, purpose)) {
    // The value itself is not repeated: the body is untrusted input.
    throw new InvalidNotificationError(
      `Invalid notification: purpose ${purpose === undefined ? "is missing" : "is not one of " + NOTIFICATION_PURPOSES.join(", ")}`
    )
  }
  const result = NOTIFICATION_SCHEMAS[purpose as NotificationPurpose].safeParse(value)
  if (!result.success) {
    throw new InvalidNotificationError(`Invalid ${purpose} notification: ${describeIssues(result.error.issues)}`)
  }
  return result.data
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    // JSON.parse messages quote part of the text, which may hold a card token.
    throw new InvalidNotificationError("Invalid notification: body is not valid JSON")
  }
}
