import { z } from "zod"

/**
 * Field rules shared by several embedded-API requests. Lengths in the spec are
 * "characters", so they are counted in Unicode code points, not UTF-16 units.
 */

export function charCount(text: string): number {
  let count = 0
  for (const _ of text) {
    count++
  }
  return count
}

export const maxChars = (max: number) =>
  z.string().refine((text) => charCount(text) <= max, `Too long: at most ${max} characters`)

/** True when the text has no C0 control, DEL or C1 control (U+0000-001F, U+007F-009F). */
export function noControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f)) {
      return false
    }
  }
  return true
}

/**
 * An absolute http(s) URL. http is allowed because the sandbox runs on
 * localhost; the production service itself insists on https.
 */
export const httpUrl = z.string().refine((text) => {
  try {
    const { protocol } = new URL(text)
    return protocol === "https:" || protocol === "http:"
  } catch {
    return false
  }
}, "Must be an absolute http or https URL")

/** A time as unix seconds. */
export const unixSeconds = z.int().min(0)

export const listLimit = z.int().min(1).max(100)

/**
 * Ids that go into a URL path. The id format is not in the spec; restricting
 * it to letters, digits, `_` and `-` keeps `..`, `/` and `?` out of our paths.
 */
export const resourceId = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_-]+$/, "Must be an id of letters, digits, '_' or '-'")
