/**
 * What the shopper reads for each `payment_error` the hosted page sends back
 * (spec: T0001-T0005 card failures, V0002 page timed out).
 */
const MESSAGES: Record<string, string> = {
  T0001: "The card details were not accepted. Check the card number, expiry date and security code, or use another card.",
  T0002: "The payment is over the card's credit limit. Try another card or another payment method.",
  T0003: "Your card issuer declined the payment. Try another card or another payment method.",
  T0004: "The payment was stopped because it looked like a duplicate of an earlier one. Check your card statement before trying again.",
  T0005: "The card could not be charged. Please try again, or use another payment method.",
  V0002: "The payment page timed out before the payment was finished. Please try again.",
}

export function hostedPaymentErrorMessage(code: string | null): string {
  if (!code) {
    return "The payment did not go through."
  }
  return MESSAGES[code] ?? `The payment did not go through (error ${code}).`
}
