import { DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, retryDelayMs } from "../retry"
import { redact } from "../redact"

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T12:00:00Z")

  it("reads delta seconds", () => {
    expect(parseRetryAfter("7", now)).toBe(7)
    expect(parseRetryAfter(" 0 ", now)).toBe(0)
  })

  it("reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfter("Sat, 21 Nov 2026 12:00:30 GMT", now)).toBe(30)
    expect(parseRetryAfter("Sat, 21 Nov 2026 11:00:00 GMT", now)).toBe(0)
  })

  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter("soon", now)).toBeUndefined()
    expect(parseRetryAfter("-5", now)).toBeUndefined()
  })
})

describe("retryDelayMs", () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 }

  it("doubles the ceiling each attempt with jitter in its upper half", () => {
    expect(retryDelayMs(0, options, undefined, () => 0)).toBe(50)
    expect(retryDelayMs(0, options, undefined, () => 1)).toBe(100)
    expect(retryDelayMs(3, options, undefined, () => 1)).toBe(800)
  })

  it("is bounded by maxDelayMs", () => {
    expect(retryDelayMs(10, options, undefined, () => 1)).toBe(1000)
  })

  it("uses Retry-After when given, and refuses waits beyond the bound", () => {
    expect(retryDelayMs(0, options, 1)).toBe(1000)
    expect(retryDelayMs(0, options, 2)).toBeUndefined()
  })
})

describe("isRetryableStatus", () => {
  it("is true only for 429 and 5xx", () => {
    expect([200, 400, 401, 404, 409, 422, 429, 500, 502, 503].filter(isRetryableStatus)).toEqual([429, 500, 502, 503])
  })
})

describe("redact", () => {
  it("replaces every occurrence of each secret and any bearer credential", () => {
    const out = redact("a sk_abcdef123 b sk_abcdef123 Authorization: Bearer xyz.unknown-token c", ["sk_abcdef123"])
    expect(out).toBe("a [REDACTED] b [REDACTED] Authorization: Bearer [REDACTED] c")
  })

  it("leaves short or empty values alone so ordinary text survives", () => {
    expect(redact("amount 100 TWD", ["100", "", undefined])).toBe("amount 100 TWD")
  })
})
