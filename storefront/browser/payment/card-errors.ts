import type { TwPayError } from "./twpay"

/** The card-return page sends the shopper back to the checkout as `/checkout?card_error=<code>`. */
export const CARD_ERROR_PARAM = "card_error"

/** The storefront's own code for "the service has no payment for this order", sent when the intent shows no failure of its own. */
export const NOT_PAID = "NOT_PAID"

/**
 * What the shopper reads about a failed card payment, by the service's error
 * code (the sandbox README, packages/sandbox/README.md: test cards and 3-D Secure outcomes).
 * Only a code travels in an address (the return page sends it back to the
 * checkout), so that nobody can make the shop show a text of their choosing.
 */
const MESSAGES: Record<string, string> = {
  CARD_DECLINED: "The card was declined by its issuer.",
  CARD_NOT_SUPPORTED: "This type of card is not accepted.",
  CARD_INSUFFICIENT_FUNDS: "The payment is over the card's credit limit.",
  CARD_EXPIRED: "The card has expired.",
  CARD_INVALID_NUMBER: "The card number is not valid.",
  CARD_INVALID_CVV: "The security code (CVC) is wrong.",
  CARD_RISK_DECLINED: "The payment was declined by the payment service's fraud checks.",
  "3DS_FAILED": "The card issuer's verification (3-D Secure) failed.",
  "3DS_CANCELED": "The card issuer's verification (3-D Secure) was cancelled.",
  "3DS_TIMEOUT": "The card issuer's verification (3-D Secure) timed out.",
}

/**
 * A failure the shopper can fix by paying again: what happened (the service's
 * own message when the SDK gave one), its code, and what to do now.
 */
export function cardFailureMessage(error: Partial<TwPayError>, nextStep: string): string {
  const what = (error.message || (error.code && MESSAGES[error.code]) || "The card payment did not go through").replace(/[.!]+$/, "")
  return error.code ? `${what} (${error.code}). ${nextStep}` : `${what}. ${nextStep}`
}

/** The same for a code that came back in an address: only the service's known codes are shown. */
export function cardFailureMessageFor(code: string | null, nextStep: string): string {
  if (code && MESSAGES[code]) {
    return cardFailureMessage({ code, message: MESSAGES[code] }, nextStep)
  }
  return cardFailureMessage({ message: "The payment service has not confirmed a payment for this order." }, nextStep)
}
