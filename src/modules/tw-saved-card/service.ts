import type { SqlEntityManager } from "@medusajs/framework/mikro-orm/knex"
import type { Context } from "@medusajs/framework/types"
import { InjectManager, MedusaContext, MedusaError, MedusaService } from "@medusajs/framework/utils"
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

  /**
   * Moves every stored token under the active key (`rotate-card-token-keys`).
   * Safe to run again, and while the store runs: each value is written back
   * only onto its row as it was read (`swapToken_`), so a card deleted or
   * bound anew meanwhile keeps what it has now.
   */
  async reencryptTokens(): Promise<RotationResult> {
    const result: RotationResult = { reencrypted: 0, failed: [] }
    // Rows that changed between the read and the write: left as they now are, and not listed again.
    const changed: string[] = []
    for (;;) {
      const skip = [...result.failed, ...changed]
      const rows = await this.listTwSavedCards(
        { token_key_id: { $ne: this.cipher_.activeKeyId }, token_ciphertext: { $ne: null }, status: { $ne: "deleted" }, ...(skip.length ? { id: { $nin: skip } } : {}) },
        { take: ROTATION_PAGE, order: { id: "ASC" }, select: ["id", "token_ciphertext", "token_key_id"] }
      )
      if (!rows.length) {
        return result
      }
      for (const row of rows) {
        let moved: string
        try {
          moved = this.cipher_.reencrypt(row.token_ciphertext!, row.id)
        } catch {
          result.failed.push(row.id)
          continue
        }
        if (await this.swapToken_(row.id, row.token_ciphertext!, moved)) {
          result.reencrypted += 1
        } else {
          changed.push(row.id)
        }
      }
    }
  }

  /**
   * One statement: the new ciphertext replaces `from` only while the row
   * still holds `from` and is live. A delete (which wipes the token) or a new
   * binding between the rotation's read and this write is never undone.
   */
  @InjectManager()
  protected async swapToken_(id: string, from: string, to: string, @MedusaContext() sharedContext: Context = {}): Promise<boolean> {
    const manager = sharedContext.manager as SqlEntityManager
    const updated = await manager
      .getKnex()("tw_saved_card")
      .where({ id, token_ciphertext: from })
      .whereNot("status", "deleted")
      .whereNull("deleted_at")
      .update({ token_ciphertext: to, token_key_id: this.cipher_.activeKeyId, updated_at: new Date() })
    return updated === 1
  }

  /** The key new tokens are encrypted with (for the rotation command's report). */
  get activeTokenKeyId(): string {
    return this.cipher_.activeKeyId
  }
}
