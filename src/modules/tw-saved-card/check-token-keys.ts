import type { Logger } from "@medusajs/framework/types"
import { tokenCipherFromOptions } from "./options"
import { type TokenCipher, TokenCipherError } from "./token-cipher"

interface StoredRow {
  id: string
  token_ciphertext: string | null
  token_key_id: string | null
}

interface InternalList {
  list(filters: Record<string, unknown>, config: Record<string, unknown>): Promise<StoredRow[]>
  listAndCount(filters: Record<string, unknown>, config: Record<string, unknown>): Promise<[StoredRow[], number]>
}

/**
 * The module's loader: checks the token keys when the store boots, not at the
 * first charge. A missing, short or malformed key stops the boot with the
 * option's name. So does a key that does not open a token stored under its id
 * (a different key put under an old id): one token per configured key is
 * tried. Tokens under a key id that is no longer configured cannot be charged;
 * that is logged as an error, with their number. Never a key or a token.
 */
export async function checkTokenKeys({ options, container, logger }: { options?: unknown; container: { resolve<T>(key: string): T }; logger?: Logger }) {
  const cipher = tokenCipherFromOptions(options)
  let cards: InternalList
  try {
    cards = container.resolve<InternalList>("twSavedCardService")
  } catch {
    return
  }
  const keyIds = cipher.keyIds
  try {
    for (const keyId of keyIds) {
      const [row] = await cards.list({ token_key_id: keyId, token_ciphertext: { $ne: null } }, { select: ["id", "token_ciphertext", "token_key_id"], take: 1 })
      if (row) {
        opens(cipher, row, keyId)
      }
    }
    const [, orphaned] = await cards.listAndCount({ token_key_id: { $nin: keyIds }, token_ciphertext: { $ne: null } }, { select: ["id"], take: 1 })
    if (orphaned) {
      logger?.error(`medusa-payment-tw saved cards: ${orphaned} card token(s) are stored under a key that tokenKeys no longer holds: those cards cannot be charged until it is put back.`)
    }
  } catch (error) {
    if (error instanceof TokenKeyMismatch) {
      throw error
    }
    // Not migrated yet (the first boot before db:migrate): nothing is stored.
  }
}

class TokenKeyMismatch extends Error {}

function opens(cipher: TokenCipher, row: StoredRow, keyId: string) {
  try {
    cipher.decrypt(row.token_ciphertext!, row.id)
  } catch (error) {
    if (error instanceof TokenCipherError) {
      throw new TokenKeyMismatch(
        `medusa-payment-tw saved cards (module tw_saved_card): invalid options: tokenKeys.${keyId}: does not open the tokens stored under "${keyId}" (a different key under the same id?). Put the key they were encrypted with back; a new key needs a new id.`
      )
    }
    throw error
  }
}
