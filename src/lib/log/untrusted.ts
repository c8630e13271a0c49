/** Longest piece of unverified input a log line carries. */
const MAX_LENGTH = 80

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]/g

/**
 * Unverified input (a notification's id, a header) as it may appear in a log
 * line: quoted, with every control character escaped, so a request can neither
 * start a line of its own nor colour one; and cut short, so it cannot flood the log.
 */
export function untrusted(value: unknown, maxLength = MAX_LENGTH): string {
  const text = typeof value === "string" ? value : String(JSON.stringify(value) ?? value)
  const cut = text.length > maxLength ? text.slice(0, maxLength) : text
  const escaped = cut.replace(UNPRINTABLE, (c) => (c === '"' || c === "\\" ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`))
  return `"${escaped}"${text.length > maxLength ? `…(${text.length} chars)` : ""}`
}
