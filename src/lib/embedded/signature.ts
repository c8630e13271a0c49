import { createHmac, timingSafeEqual } from "node:crypto"
import { isUint8Array } from "node:util/types"
import { WebhookSignatureError } from "./webhook-errors"

/** Spec 6 / 8: a signature is accepted within 300 s of its timestamp, either way. */
export const DEFAULT_TOLERANCE_SEC = 300

const SECRET_PREFIX = "whsec_"
const DIGEST_BYTES = 32
const HEX_DIGEST_LENGTH = 64
/** Two during a rotation; anything near this bound is not from the service. */
const MAX_SIGNATURES = 16

/*
 * Verification runs on every webhook and must cost about one HMAC. Allocating
 * Buffers is a large share of that, so the decoded `v1` values and the expected
 * digest go into one scratch slab reused across calls. Safe because
 * verification is synchronous: nothing else runs between filling and reading it.
 */
const slab = Buffer.alloc(DIGEST_BYTES * (MAX_SIGNATURES + 1))
const signatureSlots = Array.from({ length: MAX_SIGNATURES }, (_, i) =>
  slab.subarray(i * DIGEST_BYTES, (i + 1) * DIGEST_BYTES)
)
const expectedDigest = slab.subarray(MAX_SIGNATURES * DIGEST_BYTES)

/*
 * The secrets' UTF-8 bytes (the same key as the string): a Buffer key spares
 * createHmac re-encoding the string on every call. Secrets change only on
 * rotation, so a small bound is plenty.
 */
const MAX_CACHED_KEYS = 16
const keyBytes = new Map<string, Buffer>()

function hmacKey(secret: string): Buffer {
  let key = keyBytes.get(secret)
  if (key === undefined) {
    if (keyBytes.size >= MAX_CACHED_KEYS) {
      keyBytes.clear()
    }
    key = Buffer.from(secret, "utf8")
    keyBytes.set(secret, key)
  }
  return key
}

export interface VerifyOptions {
  /** Current time in unix seconds; defaults to the clock. */
  now?: number
  toleranceSec?: number
}

export interface VerifiedSignature {
  timestamp: number
  /** Which of the given secrets matched: during a rotation, tells old from new. */
  secretIndex: number
}

/**
 * Verifies `Svc-Signature` (`t=<unix>,v1=<hex>[,v1=<hex>...]`) over the raw
 * body: HMAC-SHA256 keyed with the whole `whsec_` string over `{t}.{body}`,
 * compared in constant time against every `v1`, for every secret given (two
 * during a rotation). Throws `WebhookSignatureError` on any failure.
 */
export function verifySignature(
  rawBody: Buffer | Uint8Array,
  signatureHeader: string | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {}
): VerifiedSignature {
  assertRawBody(rawBody)
  const secretList = checkSecrets(secrets)
  const tolerance = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC
  if (!(tolerance >= 0)) {
    throw new TypeError("toleranceSec must be a non-negative number")
  }
  const { timestampText, count } = parseSignatureHeader(signatureHeader)

  const signedPrefix = `${timestampText}.`
  let secretIndex = -1
  for (let i = 0; i < secretList.length && secretIndex < 0; i++) {
    // The bytes go to the HMAC as they are: no decoding, no re-serialising.
    // A hex digest written into the slab is cheaper than a fresh digest Buffer.
    const hex = createHmac("sha256", hmacKey(secretList[i]!)).update(signedPrefix).update(rawBody).digest("hex")
    expectedDigest.write(hex, "hex")
    for (let j = 0; j < count; j++) {
      if (timingSafeEqual(expectedDigest, signatureSlots[j]!)) {
        secretIndex = i
        break
      }
    }
  }
  if (secretIndex < 0) {
    throw new WebhookSignatureError("SIGNATURE_MISMATCH", "Webhook signature does not match any configured secret")
  }

  // Checked after the HMAC, so this error means "authentic but stale": clock skew or a replay.
  const timestamp = Number(timestampText)
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookSignatureError(
      "SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE",
      `Webhook signature timestamp is more than ${tolerance} s away from the current time`
    )
  }
  return { timestamp, secretIndex }
}

export interface SignOptions {
  /** Unix seconds; defaults to the clock. */
  timestamp?: number
}

/**
 * The `Svc-Signature` value the service would send: one `v1` per secret, in
 * the order given. For tests; the sandbox signs with its own implementation,
 * so the two check each other.
 */
export function signPayload(
  rawBody: Buffer | Uint8Array | string,
  secrets: string | readonly string[],
  options: SignOptions = {}
): string {
  const secretList = checkSecrets(secrets)
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000)
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError("timestamp must be unix seconds (a non-negative integer)")
  }
  let header = `t=${timestamp}`
  for (const secret of secretList) {
    header += `,v1=${createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex")}`
  }
  return header
}

interface ParsedHeader {
  /** Kept as sent: the signature covers the text, not a re-printed number. */
  timestampText: string
  /** How many `v1` values were decoded into `signatureSlots`. */
  count: number
}

const COMMA = 0x2c
const SPACE = 0x20
const TAB = 0x09
const isBlank = (code: number) => code === SPACE || code === TAB

/**
 * Scans `t=...,v1=...` in place (no split, no regex: this runs per webhook).
 * Blanks around parts are tolerated; unknown schemes (`v0=`, `v2=`) are
 * ignored for forward compatibility.
 */
function parseSignatureHeader(header: string | undefined): ParsedHeader {
  if (header === undefined || header === "") {
    throw new WebhookSignatureError("SIGNATURE_HEADER_MISSING", "Webhook signature header is missing")
  }
  if (typeof header !== "string") {
    throw malformed("not a single string")
  }
  let timestampText: string | undefined
  let count = 0
  const length = header.length
  let start = 0
  while (start <= length) {
    let end = header.indexOf(",", start)
    if (end < 0) {
      end = length
    }
    let keyStart = start
    while (keyStart < end && isBlank(header.charCodeAt(keyStart))) keyStart++
    let valueEnd = end
    while (valueEnd > keyStart && isBlank(header.charCodeAt(valueEnd - 1))) valueEnd--
    const eq = header.indexOf("=", keyStart)
    if (eq < 0 || eq >= valueEnd) {
      throw malformed("a part is not key=value")
    }
    let keyEnd = eq
    while (keyEnd > keyStart && isBlank(header.charCodeAt(keyEnd - 1))) keyEnd--
    let valueStart = eq + 1
    while (valueStart < valueEnd && isBlank(header.charCodeAt(valueStart))) valueStart++
    // Only the two keys we read are worth a (tiny) substring.
    const key = keyEnd - keyStart <= 2 ? header.slice(keyStart, keyEnd) : ""

    if (key === "t") {
      if (timestampText !== undefined || !isUnixSecondsText(header, valueStart, valueEnd)) {
        throw malformed("t must appear once, as unix seconds")
      }
      timestampText = header.slice(valueStart, valueEnd)
    } else if (key === "v1") {
      if (count === MAX_SIGNATURES) {
        throw malformed(`more than ${MAX_SIGNATURES} v1 signatures`)
      }
      // Buffer#write stops at the first non-hex pair, so a short count also rejects non-hex text.
      if (
        valueEnd - valueStart !== HEX_DIGEST_LENGTH ||
        signatureSlots[count]!.write(header.slice(valueStart, valueEnd), "hex") !== DIGEST_BYTES
      ) {
        throw malformed("v1 must be 64 hex digits")
      }
      count++
    }
    if (end === length) {
      break
    }
    start = end + 1
    if (start === length || header.charCodeAt(start) === COMMA) {
      throw malformed("empty part")
    }
  }
  if (timestampText === undefined) {
    throw malformed("t is missing")
  }
  if (count === 0) {
    throw malformed("no v1 signature")
  }
  return { timestampText, count }
}

/** 1 to 12 ASCII digits. */
function isUnixSecondsText(text: string, from: number, to: number): boolean {
  if (to <= from || to - from > 12) {
    return false
  }
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x30 || code > 0x39) {
      return false
    }
  }
  return true
}

const malformed = (why: string) =>
  new WebhookSignatureError("SIGNATURE_HEADER_MALFORMED", `Webhook signature header is malformed: ${why}`)

/** Raw bytes only: a parsed or re-serialised body would not match what was signed. */
function assertRawBody(rawBody: unknown): asserts rawBody is Uint8Array {
  // isUint8Array (not instanceof) also accepts Buffers from another realm, as under jest.
  if (!isUint8Array(rawBody)) {
    throw new TypeError(
      `Webhook body must be the raw request bytes (Buffer or Uint8Array), got ${typeof rawBody === "string" ? "a string" : typeof rawBody}; ` +
        "pass the body exactly as received, before any JSON parsing or decoding"
    )
  }
}

function checkSecrets(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === "string" ? [secrets] : secrets
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError("At least one webhook secret is required")
  }
  for (const secret of list) {
    if (typeof secret !== "string" || !secret.startsWith(SECRET_PREFIX) || secret.length <= SECRET_PREFIX.length) {
      throw new TypeError("Each webhook secret must be the full signing secret, starting with whsec_")
    }
  }
  return list
}
