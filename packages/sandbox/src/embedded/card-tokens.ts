import type { Persistable } from "../state"
import { TIMINGS } from "./context"
import { newId } from "./ids"
import { brandOf, passesLuhn, TEST_CARDS } from "./test-cards"

/**
 * Card tokens made by `POST /v1/tokens` from the payment frame: single use, bound to the
 * merchant, valid 15 minutes (sandbox choices; the spec does not show tokens). Only what
 * the sandbox needs is kept: the test card the number names (not an arbitrary number),
 * the last four digits and the expiry. The CVC is checked for form and dropped.
 */

export interface CardToken {
  id: string
  merchantId: string
  brand: string
  last4: string
  expMonth: number
  expYear: number
  luhnValid: boolean
  /** The listed test card, or null: a plain valid card that succeeds. */
  testCard: string | null
  createdAt: number
  usedAt: number | null
}

export interface CardInput {
  number: string
  expMonth: number
  expYear: number
}

export class CardTokens implements Persistable {
  readonly name = "embedded.cardTokens"
  private tokens = new Map<string, CardToken>()

  constructor(private readonly nowMs: () => number) {}

  create(merchantId: string, input: CardInput): CardToken {
    this.prune()
    const token: CardToken = {
      id: newId.cardToken(),
      merchantId,
      brand: brandOf(input.number),
      last4: input.number.slice(-4),
      expMonth: input.expMonth,
      expYear: input.expYear,
      luhnValid: passesLuhn(input.number),
      testCard: TEST_CARDS.some((c) => c.number === input.number) ? input.number : null,
      createdAt: this.nowMs(),
      usedAt: null,
    }
    this.tokens.set(token.id, token)
    return token
  }

  /** Takes a token for one payment; undefined when unknown, of another merchant, used or expired. */
  use(merchantId: string, id: string): CardToken | undefined {
    const token = this.tokens.get(id)
    const now = this.nowMs()
    if (!token || token.merchantId !== merchantId || token.usedAt !== null || now - token.createdAt > TIMINGS.cardTokenMs) {
      return undefined
    }
    token.usedAt = now
    return token
  }

  private prune(): void {
    const since = this.nowMs() - TIMINGS.cardTokenMs
    for (const [id, token] of this.tokens) {
      if (token.createdAt < since) {
        this.tokens.delete(id)
      }
    }
  }

  dump(): unknown {
    return [...this.tokens.values()]
  }

  load(data: unknown): void {
    this.tokens = new Map((data as CardToken[]).map((t) => [t.id, t]))
  }

  reset(): void {
    this.tokens = new Map()
  }
}

/** A card is valid through the last day of its expiry month (UTC). */
export function isExpired(token: Pick<CardToken, "expMonth" | "expYear">, nowMs: number): boolean {
  return nowMs >= Date.UTC(token.expYear, token.expMonth, 1)
}
