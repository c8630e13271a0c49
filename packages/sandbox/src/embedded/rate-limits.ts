import type { Persistable } from "../state"

/**
 * Request limits of spec 8, counted in sliding windows on the sandbox clock (so moving
 * the clock forward empties them). Only requests that got through are counted.
 *
 * - Secret key: per key per minute -> 429 `AUTH_RATE_LIMITED` with `Retry-After`.
 * - Publishable key: per IP per minute and per key per minute -> the same 429.
 * - Firewall, in front of the API: per IP and per publishable key per 5 minutes -> 403
 *   with a body that is not the API's envelope and no `Retry-After`.
 *
 * The firewall and the publishable per-IP limit count only publishable-key requests
 * (browser traffic) and count them per merchant, so one test's merchant never blocks
 * another's and backend calls never reach the firewall.
 */

export interface RateLimitSettings {
  secretPerMinute: number
  publishablePerMinutePerIp: number
  publishablePerMinutePerKey: number
  firewallPer5MinPerIp: number
  firewallPer5MinPerKey: number
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  secretPerMinute: 500,
  publishablePerMinutePerIp: 30,
  publishablePerMinutePerKey: 60,
  firewallPer5MinPerIp: 100,
  firewallPer5MinPerKey: 600,
}

const MINUTE_MS = 60_000
const FIVE_MINUTES_MS = 5 * MINUTE_MS

interface Window {
  bucket: string
  limit: number
  windowMs: number
}

export type LimitVerdict = { ok: true; commit: () => void } | { ok: false; retryAfterSec: number }

export class RateLimiter implements Persistable {
  readonly name = "embedded.rateLimits"
  /** Bucket -> times (sandbox ms) of the requests counted, oldest first. */
  private hits = new Map<string, number[]>()

  constructor(private readonly nowMs: () => number) {}

  /** The firewall: true when the request may pass (and it is counted). */
  firewall(merchantId: string, ip: string, publishableKey: string, limits: RateLimitSettings): boolean {
    const verdict = this.check([
      { bucket: `fw-ip:${merchantId}:${ip}`, limit: limits.firewallPer5MinPerIp, windowMs: FIVE_MINUTES_MS },
      { bucket: `fw-key:${publishableKey}`, limit: limits.firewallPer5MinPerKey, windowMs: FIVE_MINUTES_MS },
    ])
    if (verdict.ok) {
      verdict.commit()
    }
    return verdict.ok
  }

  /** The API's own limits for an authenticated key; `commit` counts the request. */
  apiLimits(input: { kind: "publishable" | "secret"; key: string; merchantId: string; ip: string; limits: RateLimitSettings }): LimitVerdict {
    const { limits } = input
    if (input.kind === "secret") {
      return this.check([{ bucket: `sk:${input.key}`, limit: limits.secretPerMinute, windowMs: MINUTE_MS }])
    }
    return this.check([
      { bucket: `pk-ip:${input.merchantId}:${input.ip}`, limit: limits.publishablePerMinutePerIp, windowMs: MINUTE_MS },
      { bucket: `pk:${input.key}`, limit: limits.publishablePerMinutePerKey, windowMs: MINUTE_MS },
    ])
  }

  private check(windows: Window[]): LimitVerdict {
    const now = this.nowMs()
    let retryAfterMs = 0
    for (const w of windows) {
      const list = this.recent(w.bucket, now - w.windowMs)
      if (list.length >= w.limit) {
        // The oldest counted request leaves the window first; one slot frees up then.
        const frees = list[list.length - w.limit] + w.windowMs
        retryAfterMs = Math.max(retryAfterMs, frees - now)
      }
    }
    if (retryAfterMs > 0) {
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
    }
    return {
      ok: true,
      commit: () => {
        for (const w of windows) {
          this.recent(w.bucket, now - w.windowMs).push(now)
        }
      },
    }
  }

  private recent(bucket: string, since: number): number[] {
    const list = (this.hits.get(bucket) ?? []).filter((t) => t > since)
    this.hits.set(bucket, list)
    return list
  }

  dump(): unknown {
    const since = this.nowMs() - FIVE_MINUTES_MS
    return Object.fromEntries([...this.hits].map(([bucket, list]) => [bucket, list.filter((t) => t > since)]).filter(([, list]) => list.length > 0))
  }

  load(data: unknown): void {
    this.hits = new Map(Object.entries((data as Record<string, number[]>) ?? {}))
  }

  reset(): void {
    this.hits = new Map()
  }
}
