import type { TokenNotification } from "../../../lib/hosted"

/**
 * What a `token` notification (spec 6.3) says, as the workflow `bind-tw-card`
 * takes it: the only delivery of a card token. It is unsigned, so nothing in
 * it is trusted before `verify-tw-token-notification` matched it with a
 * binding this store started.
 */
export interface TokenDelivery {
  /** The binding's id (`/checkout-token`), which the card row holds. */
  binding_id: string
  merchant_id: string
  custom_id: string | null
  success: boolean
  /** Four digits, when the notification gave them. */
  last4: string | null
  /** Why a binding failed, as the customer reads it (`bindingFailureReason`). */
  failure_reason: string
}

/** Whether a hosted notification body is a `token` one, without parsing it fully (the intake's switch). */
export function isTokenNotification(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { purpose?: unknown }).purpose === "token"
}

/**
 * Why a binding failed, as the customer reads it. The notification is
 * unsigned: only a code-shaped message is kept, anything else becomes a
 * generic reason.
 */
export function bindingFailureReason(message: string | undefined): string {
  if (message === "3DS_ABANDONED") {
    return "3-D Secure was not completed within 10 minutes (3DS_ABANDONED)"
  }
  if (message && /^[A-Za-z0-9_]{1,40}$/.test(message)) {
    return `the card was not accepted (${message})`
  }
  return "the card was not accepted"
}

/** The facts of a parsed notification, its token apart: only the step that encrypts it ever gets the token. */
export function tokenDelivery(n: TokenNotification): TokenDelivery {
  return {
    binding_id: n.id,
    merchant_id: n.merchantId,
    custom_id: n.customId ?? null,
    success: n.success,
    last4: typeof n.paymentInfo === "string" && /^\d{4}$/.test(n.paymentInfo) ? n.paymentInfo : null,
    failure_reason: bindingFailureReason(n.message),
  }
}
