/**
 * Embedded test cards: the number decides what the acquirer does. Every listed number
 * passes the Luhn check (the payment form refuses numbers that do not); a number that
 * fails it, sent straight to `/v1/tokens`, is `CARD_INVALID_NUMBER` at confirm, and a
 * past expiry is `CARD_EXPIRED`. Any other valid number succeeds.
 */

export const PAYMENT_FAILURE_CODES = [
  "CARD_DECLINED",
  "CARD_NOT_SUPPORTED",
  "CARD_INSUFFICIENT_FUNDS",
  "CARD_EXPIRED",
  "CARD_INVALID_NUMBER",
  "CARD_INVALID_CVV",
  "CARD_RISK_DECLINED",
] as const
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number]

/** What the acquirer answers to an authorisation. */
export type Authorisation =
  | { kind: "succeeded" }
  | { kind: "failed"; code: PaymentFailureCode }
  /** Result unknown for now; reconciliation later settles it as given. */
  | { kind: "processing"; settlesAs: { kind: "succeeded" } | { kind: "failed"; code: PaymentFailureCode } }

export type RefundBehaviour = "succeeds" | "staysPending" | "fails"

export interface TestCard {
  number: string
  description: string
  authorisation: Authorisation
  threeDs: boolean
  refunds: RefundBehaviour
}

const card = (number: string, description: string, extra: Partial<Omit<TestCard, "number" | "description">> = {}): TestCard => ({
  number,
  description,
  authorisation: { kind: "succeeded" },
  threeDs: false,
  refunds: "succeeds",
  ...extra,
})
const declines = (number: string, code: PaymentFailureCode, description: string) =>
  card(number, `${code}: ${description}`, { authorisation: { kind: "failed", code } })

export const TEST_CARDS: TestCard[] = [
  card("4242424242424242", "succeeds (Visa)"),
  card("5555555555554444", "succeeds (Mastercard)"),
  declines("4000000000000002", "CARD_DECLINED", "issuer declined"),
  declines("4000000000000150", "CARD_NOT_SUPPORTED", "card type not activated for the merchant"),
  declines("4000000000009995", "CARD_INSUFFICIENT_FUNDS", "credit limit insufficient"),
  declines("4000000000000069", "CARD_EXPIRED", "card expired"),
  declines("4000000000000010", "CARD_INVALID_NUMBER", "number unknown to the issuer"),
  declines("4000000000000127", "CARD_INVALID_CVV", "wrong security code"),
  declines("4000000000004954", "CARD_RISK_DECLINED", "failed risk control"),
  card("4000000000003220", "3-D Secure challenge, then succeeds", { threeDs: true }),
  card("4000000000007700", "processing, then succeeded at reconciliation (15 to 20 minutes)", {
    authorisation: { kind: "processing", settlesAs: { kind: "succeeded" } },
  }),
  card("4000000000007718", "processing, then failed (CARD_DECLINED) at reconciliation", {
    authorisation: { kind: "processing", settlesAs: { kind: "failed", code: "CARD_DECLINED" } },
  }),
  card("4000000000005506", "succeeds; its refunds stay pending for 1 minute, then succeed", { refunds: "staysPending" }),
  card("4000000000005514", "succeeds; its refunds fail (200 with status failed)", { refunds: "fails" }),
]

export const EMBEDDED_SUCCESS_CARD = "4242424242424242"

/** The behaviour of any number: a listed test card, or a plain valid card that succeeds. */
export function testCardFor(number: string): TestCard {
  return TEST_CARDS.find((c) => c.number === number) ?? card(number, "succeeds")
}

export function passesLuhn(number: string): boolean {
  let sum = 0
  let double = false
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48
    if (double) {
      digit *= 2
      if (digit > 9) {
        digit -= 9
      }
    }
    sum += digit
    double = !double
  }
  return sum % 10 === 0
}

export function brandOf(number: string): string {
  if (/^4/.test(number)) {
    return "visa"
  }
  if (/^(5[1-5]|2[2-7])/.test(number)) {
    return "mastercard"
  }
  if (/^35/.test(number)) {
    return "jcb"
  }
  if (/^3[47]/.test(number)) {
    return "amex"
  }
  return "unknown"
}
