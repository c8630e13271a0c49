import { randomBytes } from "node:crypto"
import { inspect } from "node:util"
import { tokenCipherFromOptions } from "../options"
import { TokenCipher } from "../token-cipher"

const KEY_A = randomBytes(32)
const KEY_B = randomBytes(32)
const TOKEN = "tok_Unit9Card8Token7Value6abcdefghijklmnop"

/** Everything an error or an object shows a logger or an error tracker. */
const dump = (value: unknown) => [String(value), (value as Error)?.stack ?? "", JSON.stringify(value) ?? "", inspect(value, { depth: 10, showHidden: true })].join("\n")
const secrets = [TOKEN, KEY_A.toString("base64"), KEY_B.toString("base64"), KEY_A.toString("hex")]
const expectNoSecret = (value: unknown) => secrets.forEach((secret) => expect(dump(value)).not.toContain(secret))
const caught = (work: () => unknown) => {
  try {
    work()
  } catch (error) {
    return error
  }
  throw new Error("expected an error")
}

describe("TokenCipher (AES-256-GCM for card tokens)", () => {
  const a = new TokenCipher({ a: KEY_A }, "a")

  it("stores <keyId>:<iv>:<tag>:<ciphertext> with a fresh IV each time, and opens it for its row only", () => {
    const one = a.encrypt(TOKEN, "twcard_1")
    const two = a.encrypt(TOKEN, "twcard_1")
    expect(one).toMatch(/^a:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/)
    expect(one).not.toBe(two)
    expect(a.decrypt(one, "twcard_1")).toBe(TOKEN)
    expect(a.decrypt(two, "twcard_1")).toBe(TOKEN)
    expectNoSecret(one)
    expectNoSecret(a)
    expect(caught(() => a.decrypt(one, "twcard_2"))).toHaveProperty("message", 'a token under key "a" did not open: wrong key, another row\'s value, or altered')
  })

  it("refuses an altered value, a wrong key under the same id, an unknown key id and a malformed value, naming no secret", () => {
    const stored = a.encrypt(TOKEN, "twcard_1")
    const [id, iv, tag, data] = stored.split(":")
    const flipped = Buffer.from(data, "base64url")
    flipped[0] ^= 1
    const errors = [
      caught(() => a.decrypt([id, iv, tag, flipped.toString("base64url")].join(":"), "twcard_1")),
      caught(() => new TokenCipher({ a: KEY_B }, "a").decrypt(stored, "twcard_1")),
      caught(() => new TokenCipher({ b: KEY_B }, "b").decrypt(stored, "twcard_1")),
      caught(() => a.decrypt("a:short", "twcard_1")),
      caught(() => a.decrypt(`a:${iv}:${tag.slice(2)}:${data}`, "twcard_1")),
    ]
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'a token under key "a" did not open: wrong key, another row\'s value, or altered',
      'a token under key "a" did not open: wrong key, another row\'s value, or altered',
      'token key "a" is not configured: keep an old key in tokenKeys until every token is re-encrypted',
      "a stored token is not in the form <keyId>:<iv>:<tag>:<ciphertext>",
      'a stored token under key "a" is truncated',
    ])
    errors.forEach(expectNoSecret)
  })

  it("re-encrypts under the active key, leaves a value already under it as it is", () => {
    const old = a.encrypt(TOKEN, "twcard_1")
    const both = new TokenCipher({ b: KEY_B, a: KEY_A }, "b")
    const moved = both.reencrypt(old, "twcard_1")
    expect(both.keyIdOf(moved)).toBe("b")
    expect(both.reencrypt(moved, "twcard_1")).toBe(moved)
    expect(new TokenCipher({ b: KEY_B }, "b").decrypt(moved, "twcard_1")).toBe(TOKEN)
  })

  it("checks keys and ids when built", () => {
    expect(caught(() => new TokenCipher({ a: randomBytes(16) }, "a"))).toHaveProperty("message", 'token key "a" must be 32 bytes')
    expect(caught(() => new TokenCipher({ "a:b": KEY_A }, "a:b"))).toHaveProperty("message", expect.stringContaining("may only hold letters, digits, _ and -"))
    expect(caught(() => new TokenCipher({ a: KEY_A }, "b"))).toHaveProperty("message", 'the active token key "b" is not among the configured keys')
  })

  it("options: base64 or base64url keys of 32 bytes; errors name the option, never the value", () => {
    expect(tokenCipherFromOptions({ tokenKeys: { a: KEY_A.toString("base64url") }, activeTokenKeyId: "a", other: "plugin option" }).decrypt(a.encrypt(TOKEN, "r"), "r")).toBe(TOKEN)
    const short = randomBytes(31).toString("base64")
    const error = caught(() => tokenCipherFromOptions({ tokenKeys: { a: short, b: KEY_B.toString("base64") }, activeTokenKeyId: "a" }))
    expect((error as Error).message).toBe(
      "medusa-payment-tw saved cards (module tw_saved_card): invalid options: tokenKeys.a: must be 32 random bytes in base64 (openssl rand -base64 32)"
    )
    expect(dump(error)).not.toContain(short)
    expectNoSecret(error)
  })
})
