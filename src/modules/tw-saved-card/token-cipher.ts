import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"

/**
 * AES-256-GCM for card tokens at rest. Each value gets a fresh random 12-byte
 * IV and is bound to its row by the additional authenticated data (the row
 * id), so a ciphertext moved to another row, or altered, does not open. The
 * stored form names its key, `<keyId>:<iv>:<tag>:<ciphertext>` (base64url), so
 * keys can be rotated: a value opens while its key is configured, and
 * `reencrypt` moves it under the active key.
 *
 * Errors name key ids and rows, never a key or a token.
 */

const ALGORITHM = "aes-256-gcm"
const IV_BYTES = 12
const TAG_BYTES = 16
export const KEY_BYTES = 32
/** Key ids appear in the stored form, between colons. */
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/

export class TokenCipherError extends Error {
  override name = "TokenCipherError"
}

export class TokenCipher {
  readonly #keys: ReadonlyMap<string, Buffer>
  readonly activeKeyId: string

  /** @param keys key id → 32-byte key */
  constructor(keys: Record<string, Buffer>, activeKeyId: string) {
    for (const [id, key] of Object.entries(keys)) {
      if (!KEY_ID.test(id)) {
        throw new TokenCipherError(`token key id "${id.slice(0, 32)}" may only hold letters, digits, _ and - (at most 32)`)
      }
      if (key.length !== KEY_BYTES) {
        throw new TokenCipherError(`token key "${id}" must be ${KEY_BYTES} bytes`)
      }
    }
    if (!Object.hasOwn(keys, activeKeyId)) {
      throw new TokenCipherError(`the active token key "${activeKeyId}" is not among the configured keys`)
    }
    this.#keys = new Map(Object.entries(keys).map(([id, key]) => [id, Buffer.from(key)]))
    this.activeKeyId = activeKeyId
  }

  encrypt(plaintext: string, aad: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv(ALGORITHM, this.#key(this.activeKeyId), iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(aad, "utf8"))
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
    return [this.activeKeyId, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(":")
  }

  decrypt(stored: string, aad: string): string {
    const { keyId, iv, tag, ciphertext } = parse(stored)
    const decipher = createDecipheriv(ALGORITHM, this.#key(keyId), iv, { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(aad, "utf8"))
    decipher.setAuthTag(tag)
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8")
    } catch {
      throw new TokenCipherError(`a token under key "${keyId}" did not open: wrong key, another row's value, or altered`)
    }
  }

  /** The value under the active key (unchanged when it already is). */
  reencrypt(stored: string, aad: string): string {
    return this.keyIdOf(stored) === this.activeKeyId ? stored : this.encrypt(this.decrypt(stored, aad), aad)
  }

  keyIdOf(stored: string): string {
    return parse(stored).keyId
  }

  hasKey(keyId: string): boolean {
    return this.#keys.has(keyId)
  }

  get keyIds(): string[] {
    return [...this.#keys.keys()]
  }

  #key(keyId: string): Buffer {
    const key = this.#keys.get(keyId)
    if (!key) {
      throw new TokenCipherError(`token key "${keyId}" is not configured: keep an old key in tokenKeys until every token is re-encrypted`)
    }
    return key
  }
}

function parse(stored: string) {
  const parts = stored.split(":")
  if (parts.length !== 4 || !KEY_ID.test(parts[0])) {
    throw new TokenCipherError("a stored token is not in the form <keyId>:<iv>:<tag>:<ciphertext>")
  }
  const [keyId, iv, tag, ciphertext] = [parts[0], ...parts.slice(1).map((part) => Buffer.from(part, "base64url"))]
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES || ciphertext.length === 0) {
    throw new TokenCipherError(`a stored token under key "${keyId}" is truncated`)
  }
  return { keyId, iv, tag, ciphertext }
}
