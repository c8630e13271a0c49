/**
 * Test cards: the card number decides the outcome. Every number must pass the
 * Luhn check; numbers not listed here succeed. The families share a three-digit
 * code (digits 12 to 14) so one table documents them all:
 *
 *   4000 0000 0000 0CCx  fails at once (checkout, binding, first charge)
 *   4000 0000 0001 0CCx  binds and pays the first charge; every later charge fails
 *   4000 0000 0002 0CCx  binds and pays the first charge; a later charge fails on its
 *                        first attempt and succeeds when retried
 *
 * where CC is 01 to 07 for the failure codes below (e.g. 4000 0000 0000 0051 is
 * `payment_refused`). 4000 0000 0000 3006 needs a 3-D Secure challenge;
 * 4000 0000 0000 8005 pays normally but its refunds are rejected (R0001).
 */

export const FAILURE_CODES = [
  "invalid_card_number",
  "invalid_cvv",
  "expired_card",
  "exceeds_credit_limit",
  "payment_refused",
  "duplicate_payment",
  "charge_failed",
] as const
export type FailureCode = (typeof FAILURE_CODES)[number]

/** `payment_error` on the failure redirect and the error code of a failed token charge (the spec leaves T0001 to T0005 open). */
export const PAYMENT_ERROR_BY_FAILURE: Record<FailureCode, string> = {
  invalid_card_number: "T0001",
  invalid_cvv: "T0001",
  expired_card: "T0001",
  exceeds_credit_limit: "T0002",
  payment_refused: "T0003",
  duplicate_payment: "T0004",
  charge_failed: "T0005",
}

export const SUCCESS_CARD = "4242424242424242"
export const THREE_DS_CARD = "4000000000003006"
export const REFUND_REJECTED_CARD = "4000000000008005"

/** A card as the sandbox keeps it after a payment or binding (test numbers only). */
export interface StoredCard {
  number: string
  last4: string
  expMonth: number
  expYear: number
}

export interface CardBehaviour {
  /** Fails the first use (payment on the page, binding, first period). */
  failsAtOnce?: FailureCode
  /** Fails every later charge (recurring periods, token charges). */
  failsLater?: FailureCode
  /** With `failsLater`: a retried period charge succeeds. */
  recoversOnRetry?: boolean
  requires3ds?: boolean
  refundRejected?: boolean
}

export function cardBehaviour(number: string): CardBehaviour {
  if (number === THREE_DS_CARD) {
    return { requires3ds: true }
  }
  if (number === REFUND_REJECTED_CARD) {
    return { refundRejected: true }
  }
  const match = /^40000000000([012])0(\d\d)\d$/.exec(number)
  const code = match ? FAILURE_CODES[Number(match[2]) - 1] : undefined
  if (!match || !code) {
    return {}
  }
  switch (match[1]) {
    case "0":
      return { failsAtOnce: code }
    case "1":
      return { failsLater: code }
    default:
      return { failsLater: code, recoversOnRetry: true }
  }
}

export function passesLuhn(number: string): boolean {
  let sum = 0
  let double = false
  for (let i = number.length - 1; i >= 0; i--) {
    let d = Number(number[i])
    if (double) {
      d *= 2
      if (d > 9) {
        d -= 9
      }
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

export type CardCheck = { ok: true; card: StoredCard; behaviour: CardBehaviour } | { ok: false; failureCode: FailureCode; last4?: string }

/**
 * What the page's card form decides: a malformed number, expiry or CVC fails like
 * the matching test card would; otherwise the number's behaviour applies.
 */
export function checkCardInput(input: { number: string; expiry: string; cvc: string }, today: { year: number; month: number }): CardCheck {
  const number = input.number.replace(/[\s-]/g, "")
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) {
    return { ok: false, failureCode: "invalid_card_number" }
  }
  const last4 = number.slice(-4)
  const expiry = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.expiry.trim())
  const expMonth = expiry ? Number(expiry[1]) : 0
  const expYear = expiry ? (expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0
  if (!expiry || expMonth < 1 || expMonth > 12 || isExpired({ expMonth, expYear }, today)) {
    return { ok: false, failureCode: "expired_card", last4 }
  }
  if (!/^\d{3,4}$/.test(input.cvc.trim())) {
    return { ok: false, failureCode: "invalid_cvv", last4 }
  }
  const behaviour = cardBehaviour(number)
  if (behaviour.failsAtOnce) {
    return { ok: false, failureCode: behaviour.failsAtOnce, last4 }
  }
  return { ok: true, card: { number, last4, expMonth, expYear }, behaviour }
}

export function isExpired(card: { expMonth: number; expYear: number }, today: { year: number; month: number }): boolean {
  return card.expYear < today.year || (card.expYear === today.year && card.expMonth < today.month)
}

/**
 * Outcome of charging a stored card later (recurring period or token charge).
 * `isRetry` is true for the re-charge of a failed period.
 */
export function laterChargeOutcome(
  card: StoredCard,
  today: { year: number; month: number },
  isRetry: boolean
): FailureCode | undefined {
  if (isExpired(card, today)) {
    return "expired_card"
  }
  const behaviour = cardBehaviour(card.number)
  if (behaviour.failsLater && !(behaviour.recoversOnRetry && isRetry)) {
    return behaviour.failsLater
  }
  return undefined
}

/** The table shown on the hosted pages and in the docs. */
export const TEST_CARD_TABLE: { number: string; outcome: string }[] = [
  { number: SUCCESS_CARD, outcome: "success (so does any other Luhn-valid number not listed)" },
  { number: THREE_DS_CARD, outcome: "3-D Secure challenge, then success" },
  { number: REFUND_REJECTED_CARD, outcome: "success; refunds rejected with R0001" },
  ...FAILURE_CODES.map((code, i) => ({
    number: withLuhn(`4000000000000${String(i + 1).padStart(2, "0")}`),
    outcome: `${code} (${PAYMENT_ERROR_BY_FAILURE[code]})`,
  })),
  ...FAILURE_CODES.map((code, i) => ({
    number: withLuhn(`4000000000010${String(i + 1).padStart(2, "0")}`),
    outcome: `first charge ok; later charges fail: ${code}`,
  })),
  { number: withLuhn("400000000002005"), outcome: "first charge ok; a later charge fails (payment_refused), its retry succeeds" },
]

export function withLuhn(prefix: string): string {
  for (let d = 0; d <= 9; d++) {
    if (passesLuhn(`${prefix}${d}`)) {
      return `${prefix}${d}`
    }
  }
  throw new Error("unreachable")
}
