import { createHash } from "node:crypto"
import type { Persistable } from "../state"
import { type ApiAnswer, ApiError } from "./envelope"

/**
 * `Idempotency-Key` of spec 4 and 8 (create intent, create refund, SDK confirm), per
 * merchant:
 * - same key, same endpoint, same body -> the first answer again, byte for byte
 *   (its `requestId` included), with `Idempotency-Replayed: true`;
 * - same key, other endpoint or body -> 422 `IDEMPOTENCY_KEY_REUSED`;
 * - the first request still without a result -> 409 `IDEMPOTENCY_KEY_IN_PROGRESS`, until
 *   it is 5 minutes old: then the request is processed again;
 * - records are forgotten 24 hours after the first request (sandbox clock).
 * "Same body" means the same JSON value (key order and white space do not matter).
 * Answers are recorded except 409s (in progress, refund in progress, reconciliation)
 * and 500s: those tell the caller to come back with the same key.
 */

export const IDEMPOTENCY_RECORD_MS = 24 * 60 * 60_000
export const IDEMPOTENCY_REPROCESS_MS = 5 * 60_000
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/

interface IdempotencyRecord {
  merchantId: string
  key: string
  endpoint: string
  fingerprint: string
  startedAt: number
  answer: ApiAnswer | null
}

export type IdempotencyStart =
  | { kind: "replay"; answer: ApiAnswer }
  | { kind: "proceed"; ticket: IdempotencyTicket }

export interface IdempotencyTicket {
  merchantId: string
  key: string
  startedAt: number
}

export class IdempotencyStore implements Persistable {
  readonly name = "embedded.idempotency"
  private records = new Map<string, IdempotencyRecord>()

  constructor(private readonly nowMs: () => number) {}

  /** Reads the header: undefined when absent; a malformed key is a 400 on field `Idempotency-Key`. */
  static parseKey(header: string | string[] | undefined): string | undefined {
    if (header === undefined) {
      return undefined
    }
    const value = Array.isArray(header) ? header.join(", ") : header
    if (!KEY_PATTERN.test(value)) {
      throw new ApiError(400, "INVALID_REQUEST", "Idempotency-Key must be 1 to 255 printable ASCII characters", "Idempotency-Key")
    }
    return value
  }

  /** Decides what a request with this key gets; on "proceed" the request now holds the key. */
  begin(merchantId: string, key: string, endpoint: string, body: Buffer): IdempotencyStart {
    const now = this.nowMs()
    const id = recordId(merchantId, key)
    const existing = this.records.get(id)
    const fingerprint = fingerprintOf(body)
    if (existing && now - existing.startedAt < IDEMPOTENCY_RECORD_MS) {
      if (existing.endpoint !== endpoint || existing.fingerprint !== fingerprint) {
        throw new ApiError(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with another endpoint or request body", "Idempotency-Key")
      }
      if (existing.answer) {
        return { kind: "replay", answer: existing.answer }
      }
      if (now - existing.startedAt < IDEMPOTENCY_REPROCESS_MS) {
        throw new ApiError(409, "IDEMPOTENCY_KEY_IN_PROGRESS", "A request with this Idempotency-Key is still being processed; retry later with the same key", "Idempotency-Key")
      }
    }
    this.records.set(id, { merchantId, key, endpoint, fingerprint, startedAt: now, answer: null })
    return { kind: "proceed", ticket: { merchantId, key, startedAt: now } }
  }

  /** Stores the answer, or lets the key go when the answer tells the caller to come back with it. */
  complete(ticket: IdempotencyTicket, answer: ApiAnswer): void {
    const id = recordId(ticket.merchantId, ticket.key)
    const record = this.records.get(id)
    if (!record || record.startedAt !== ticket.startedAt) {
      return
    }
    if (answer.status === 409 || answer.status >= 500) {
      this.records.delete(id)
    } else {
      record.answer = answer
    }
  }

  /** Forgets a key whose request never ran (a fault that did nothing). */
  release(ticket: IdempotencyTicket): void {
    const id = recordId(ticket.merchantId, ticket.key)
    if (this.records.get(id)?.startedAt === ticket.startedAt) {
      this.records.delete(id)
    }
  }

  dump(): unknown {
    const since = this.nowMs() - IDEMPOTENCY_RECORD_MS
    return [...this.records.values()].filter((r) => r.startedAt > since)
  }

  load(data: unknown): void {
    this.records = new Map((data as IdempotencyRecord[]).map((r) => [recordId(r.merchantId, r.key), r]))
  }

  reset(): void {
    this.records = new Map()
  }
}

function recordId(merchantId: string, key: string): string {
  return `${merchantId}\n${key}`
}

/** The JSON value with sorted keys, so formatting does not make two equal bodies differ. */
function fingerprintOf(body: Buffer): string {
  let canonical: string
  if (body.length === 0) {
    canonical = "{}"
  } else {
    try {
      canonical = JSON.stringify(sortKeys(JSON.parse(body.toString("utf8"))))
    } catch {
      canonical = `raw:${body.toString("base64")}`
    }
  }
  return createHash("sha256").update(canonical).digest("hex")
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeys)
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])])
    )
  }
  return value
}
