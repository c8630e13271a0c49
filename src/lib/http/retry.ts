/**
 * When and how long to wait before repeating a request. Only requests that are
 * safe to repeat (reads, and embedded POSTs carrying an `Idempotency-Key`) are
 * ever retried; the transport enforces that, this file only does the arithmetic.
 */

export interface RetryOptions {
  /** Extra attempts after the first. Default 2. */
  maxRetries?: number
  /** First back-off step. Default 250 ms, doubled each attempt, with full jitter. */
  baseDelayMs?: number
  /** Upper bound of one wait, including a server's `Retry-After`. Default 5 s. */
  maxDelayMs?: number
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxRetries: 2,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
}

export const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500

/** `Retry-After` as seconds (delta form or HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (!value) {
    return undefined
  }
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) {
    return Number(trimmed)
  }
  // An HTTP date always has a weekday and month name; this also keeps "-5" from parsing as a year.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

/**
 * Milliseconds to wait before attempt `attempt + 1`, or undefined when the
 * server asks for a longer wait than we are willing to block for (the caller
 * then gets the rate-limit error and decides).
 */
export function retryDelayMs(
  attempt: number,
  options: Required<RetryOptions>,
  retryAfterSec?: number,
  random: () => number = Math.random
): number | undefined {
  if (retryAfterSec !== undefined) {
    const ms = retryAfterSec * 1000
    return ms > options.maxDelayMs ? undefined : ms
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
