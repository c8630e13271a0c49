import { MedusaError, MedusaService } from "@medusajs/framework/utils"
import TwSavedCard from "./models/saved-card"
import TwSavedCardCharge from "./models/saved-card-charge"
import { tokenCipherFromOptions } from "./options"
import type { TokenCipher } from "./token-cipher"

/** Rows re-encrypted per database round trip. */
const ROTATION_PAGE = 100

export interface BoundCard {
  /** The card token of the `token` notification: encrypted here, never stored or returned in clear. */
  token: string
  last4?: string | null
  cardLabel?: string | null
}

export interface RotationResult {
  /** Rows moved under the active key. */
  reencrypted: number
  /** Rows left under a key that is not configured or that did not open (their ids; fix and run again). */
  failed: string[]
}

/**
 * Saved cards and their charges. Besides the generated data methods, the
 * only ways to a token: `activateSavedCard` encrypts one in, `revealToken`
 * gives it back for a charge (server side only), `reencryptTokens` rotates.
 * Nothing here logs or throws a token or a key.
 */
export default class TwSavedCardModuleService extends MedusaService({
  TwSavedCard,
  TwSavedCardCharge,
}) {
  // Not a #private field: Medusa calls module services through a Proxy. The keys stay private inside TokenCipher.
  protected readonly cipher_: TokenCipher

  constructor(cradle: Record<string, unknown>, options: unknown) {
    super(cradle)
    this.cipher_ = tokenCipherFromOptions(options)
  }

  /** The token of a binding that just succeeded, encrypted into its row; the card becomes usable. */
  async activateSavedCard(id: string, card: BoundCard) {
    return this.updateTwSavedCards({
      id,
      status: "active",
      token_ciphertext: this.cipher_.encrypt(card.token, id),
      token_key_id: this.cipher_.activeKeyId,
      last4: card.last4 ?? null,
      card_label: card.cardLabel ?? null,
      bound_at: new Date(),
      failure_reason: null,
    })
  }

  /** A deleted card keeps its row (charges refer to it) but loses its token. */
  async deleteSavedCard(id: string) {
    return this.updateTwSavedCards({ id, status: "deleted", token_ciphertext: null, token_key_id: null })
  }

  /**
   * The token of an active card of this customer, for a charge made by the
   * server. Any other card (another customer's, not bound, deleted) is "not
   * found", so ids do not leak.
   */
  async revealToken(savedCardId: string, customerId: string): Promise<string> {
    const [row] = await this.listTwSavedCards({ id: savedCardId, customer_id: customerId, status: "active" }, { take: 1 })
    if (!row?.token_ciphertext) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Saved card ${savedCardId} was not found.`)
    }
    return this.cipher_.decrypt(row.token_ciphertext, row.id)
  }

  /** Moves every stored token under the active key (`rotate-card-token-keys`). Safe to run again. */
  async reencryptTokens(): Promise<RotationResult> {
    const result: RotationResult = { reencrypted: 0, failed: [] }
    for (;;) {
      const rows = await this.listTwSavedCards(
        { token_key_id: { $ne: this.cipher_.activeKeyId }, token_ciphertext: { $ne: null }, ...(result.failed.length ? { id: { $nin: result.failed } } : {}) },
        { take: ROTATION_PAGE, order: { id: "ASC" }, select: ["id", "token_ciphertext", "token_key_id"] }
      )
      if (!rows.length) {
        return result
      }
      const updates: Array<{ id: string; token_ciphertext: string; token_key_id: string }> = []
      for (const row of rows) {
        try {
          updates.push({ id: row.id, token_ciphertext: this.cipher_.reencrypt(row.token_ciphertext!, row.id), token_key_id: this.cipher_.activeKeyId })
        } catch {
          result.failed.push(row.id)
        }
      }
      if (updates.length) {
        await this.updateTwSavedCards(updates)
        result.reencrypted += updates.length
      }
    }
  }

  /** The key new tokens are encrypted with (for the rotation command's report). */
  get activeTokenKeyId(): string {
    return this.cipher_.activeKeyId
  }
}
