import { z } from "zod"
import { describeIssues } from "../../lib/http/validate"
import { KEY_BYTES, KEY_ID, TokenCipher } from "./token-cipher"

const HOW = `${KEY_BYTES} random bytes in base64 (openssl rand -base64 ${KEY_BYTES})`

/** A key in base64 (or base64url) that decodes to exactly 32 bytes. The value never enters a message. */
const tokenKey = z
  .string({ error: `is required: ${HOW}` })
  .refine((value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value.trim()) && Buffer.from(value.trim(), "base64").length === KEY_BYTES, {
    message: `must be ${HOW}`,
  })

/**
 * The module's options. In a store that installed the package they are the
 * plugin's options (Medusa hands a plugin's options to each of its modules),
 * so other keys are allowed and ignored.
 */
export const savedCardOptionsSchema = z
  .object({
    /** key id → key. Keep an old key here until `rotate-card-token-keys` has moved every token off it. */
    tokenKeys: z.record(z.string().regex(KEY_ID, "key ids may only hold letters, digits, _ and - (at most 32)"), tokenKey, {
      // Only for a missing or non-object value: key and value issues keep their own messages.
      error: (issue) => (issue.code === "invalid_type" ? `is required: an object of key id → ${HOW}` : undefined),
    }),
    /** The key new tokens are encrypted with. */
    activeTokenKeyId: z.string({ error: "is required: the id (in tokenKeys) of the key that encrypts new tokens" }).min(1, "is required"),
  })
  .superRefine((options, ctx) => {
    if (Object.keys(options.tokenKeys).length === 0) {
      ctx.addIssue({ code: "custom", path: ["tokenKeys"], message: `needs at least one key: ${HOW}` })
    } else if (!Object.hasOwn(options.tokenKeys, options.activeTokenKeyId)) {
      ctx.addIssue({ code: "custom", path: ["activeTokenKeyId"], message: "must name one of the keys in tokenKeys" })
    }
  })

export type SavedCardOptions = z.input<typeof savedCardOptionsSchema>

/** The options checked, as a cipher; the error names every wrong option, never a key. */
export function tokenCipherFromOptions(options: unknown): TokenCipher {
  const result = savedCardOptionsSchema.safeParse(options ?? {})
  if (!result.success) {
    throw new Error(`medusa-payment-tw saved cards (module tw_saved_card): invalid options: ${describeIssues(result.error.issues)}`)
  }
  const keys = Object.fromEntries(Object.entries(result.data.tokenKeys).map(([id, value]) => [id, Buffer.from(value.trim(), "base64")]))
  return new TokenCipher(keys, result.data.activeTokenKeyId)
}
