/**
 * Keeps credentials out of log lines and error messages. Every string the
 * transport logs or puts into an error goes through `redact`, so a service that
 * echoes a token back (or a caller's typo) cannot leak it.
 */

export const REDACTED = "[REDACTED]"

/** Values shorter than this are not treated as secrets (they would mangle ordinary text). */
const MIN_SECRET_LENGTH = 6

export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) {
      out = out.split(secret).join(REDACTED)
    }
  }
  // Bearer credentials of any kind, even ones we were not told about.
  return out.replace(/Bearer\s+[^\s",;]+/gi, `Bearer ${REDACTED}`)
}

export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}
