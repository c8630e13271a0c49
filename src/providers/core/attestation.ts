import { createHmac, timingSafeEqual } from "node:crypto"

/** How long a read by the event pipeline stands in for a fresh one. */
export const ATTESTATION_TTL_MS = 10 * 60_000

/** What the service said about one payment of one session, and when. */
export interface AttestedFacts {
  sessionId: string
  /** The transaction or payment intent id. */
  serviceId: string
  amount: number
  status: string
}

export interface Attestation {
  status: string
  at: string
  mac: string
}

/**
 * Seals what the event pipeline just read from the service into session data,
 * so the cart completion it triggers does not read the service a second time.
 * Session data is public and partly storefront-supplied, so the seal is an
 * HMAC keyed by the provider's own credential: a forged, altered or stale
 * claim opens to nothing and the provider reads the service as usual.
 */
export class Attestor {
  readonly #key: Buffer

  constructor(credential: string) {
    this.#key = createHmac("sha256", credential).update("medusa-payment-tw attestation v1").digest()
  }

  seal(facts: AttestedFacts, now = new Date()): Attestation {
    const at = now.toISOString()
    return { status: facts.status, at, mac: this.#mac(facts, at) }
  }

  /** The attested status, or undefined when the seal is absent, wrong, for other facts or stale. */
  open(value: unknown, facts: Omit<AttestedFacts, "status">, now = Date.now()): string | undefined {
    if (typeof value !== "object" || value === null) {
      return undefined
    }
    const { status, at, mac } = value as Partial<Attestation>
    if (typeof status !== "string" || typeof at !== "string" || typeof mac !== "string") {
      return undefined
    }
    const age = now - Date.parse(at)
    if (!(age >= -60_000 && age <= ATTESTATION_TTL_MS)) {
      return undefined
    }
    const expected = Buffer.from(this.#mac({ ...facts, status }, at), "hex")
    const given = Buffer.from(mac, "hex")
    return given.length === expected.length && timingSafeEqual(given, expected) ? status : undefined
  }

  #mac(facts: AttestedFacts, at: string): string {
    return createHmac("sha256", this.#key)
      .update(JSON.stringify([facts.sessionId, facts.serviceId, facts.amount, facts.status, at]))
      .digest("hex")
  }
}
