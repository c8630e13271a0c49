import { createHash } from "node:crypto"
import type { Persistable } from "../state"
import { randomAlphanumeric } from "./ids"
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./rate-limits"

/**
 * Per-merchant embedded settings as the admin console's embed tab would hold them:
 * activation, keys, allowed domains and (a sandbox addition) the rate limits.
 *
 * Keys: `pk_` + 24 and `sk_` + 32 characters. Regenerating issues a new pair and
 * leaves the previous ones valid for 24 hours on the sandbox clock; revoking ends a
 * key at once (spec 5).
 */

export const KEY_GRACE_MS = 24 * 60 * 60_000
export const PUBLISHABLE_KEY_PATTERN = /^pk_[0-9A-Za-z_]{24}$/
export const SECRET_KEY_PATTERN = /^sk_[0-9A-Za-z_]{32}$/

/** Fixed keys of the default merchant `demo-shop` (the exact lengths of spec 5). */
export const DEFAULT_PUBLISHABLE_KEY = "pk_sandbox_demo_shop_000001"
export const DEFAULT_SECRET_KEY = "sk_sandbox_demo_shop_secret_0000001"
export const DEFAULT_ALLOWED_DOMAINS = ["localhost", "127.0.0.1"]

export type KeyKind = "publishable" | "secret"

export interface ApiKeyPair {
  publishableKey: string
  secretKey: string
  createdAt: number
  /** Set when a newer pair replaced this one: valid until then (sandbox ms). */
  expiresAt: number | null
  revokedAt: number | null
}

export interface EmbeddedAccount {
  merchantId: string
  embedActive: boolean
  /** "Merchant active" of spec 5; the hosted API has no such state, so only the embedded API reads it. */
  merchantActive: boolean
  allowedDomains: string[]
  keys: ApiKeyPair[]
  rateLimits: RateLimitSettings
}

export interface KeyMatch {
  account: EmbeddedAccount
  pair: ApiKeyPair
  kind: KeyKind
  key: string
}

export class EmbeddedAccounts implements Persistable {
  readonly name = "embedded.accounts"
  private accounts = new Map<string, EmbeddedAccount>()

  constructor(
    private readonly nowMs: () => number,
    private readonly defaultMerchantId: string
  ) {
    this.reset()
  }

  /** A merchant's account; merchants created through the control API get one on first use, embed not activated. */
  account(merchantId: string): EmbeddedAccount {
    let account = this.accounts.get(merchantId)
    if (!account) {
      account = {
        merchantId,
        embedActive: false,
        merchantActive: true,
        allowedDomains: [],
        keys: [randomPair(this.nowMs())],
        rateLimits: { ...DEFAULT_RATE_LIMITS },
      }
      this.accounts.set(merchantId, account)
    }
    return account
  }

  find(merchantId: string): EmbeddedAccount | undefined {
    return this.accounts.get(merchantId)
  }

  /** The account and key pair a key string belongs to, valid or not (callers judge validity). */
  lookup(key: string): KeyMatch | undefined {
    for (const account of this.accounts.values()) {
      for (const pair of account.keys) {
        if (pair.publishableKey === key) {
          return { account, pair, kind: "publishable", key }
        }
        if (pair.secretKey === key) {
          return { account, pair, kind: "secret", key }
        }
      }
    }
    return undefined
  }

  /** New pair; the pairs still valid now end 24 h later (unless they already end sooner). */
  regenerate(merchantId: string): ApiKeyPair {
    const account = this.account(merchantId)
    const now = this.nowMs()
    for (const pair of account.keys) {
      if (pair.revokedAt === null && (pair.expiresAt === null || pair.expiresAt > now + KEY_GRACE_MS)) {
        pair.expiresAt = now + KEY_GRACE_MS
      }
    }
    const pair = randomPair(now)
    account.keys.push(pair)
    return pair
  }

  /** Revokes one key's pair, or every pair of the merchant when no key is named. False: no such key. */
  revoke(merchantId: string, key?: string): boolean {
    const account = this.account(merchantId)
    const now = this.nowMs()
    const pairs = key === undefined ? account.keys : account.keys.filter((p) => p.publishableKey === key || p.secretKey === key)
    for (const pair of pairs) {
      pair.revokedAt ??= now
    }
    return pairs.length > 0
  }

  /** The newest pair that is neither revoked nor expired. */
  currentPair(merchantId: string): ApiKeyPair | undefined {
    const now = this.nowMs()
    return [...this.account(merchantId).keys].reverse().find((p) => p.revokedAt === null && (p.expiresAt === null || p.expiresAt > now))
  }

  dump(): unknown {
    return [...this.accounts.values()]
  }

  load(data: unknown): void {
    this.accounts = new Map((data as EmbeddedAccount[]).map((a) => [a.merchantId, a]))
    this.ensureDefault()
  }

  reset(): void {
    this.accounts = new Map()
    this.ensureDefault()
  }

  private ensureDefault(): void {
    if (this.accounts.has(this.defaultMerchantId)) {
      return
    }
    this.accounts.set(this.defaultMerchantId, {
      merchantId: this.defaultMerchantId,
      embedActive: true,
      merchantActive: true,
      allowedDomains: [...DEFAULT_ALLOWED_DOMAINS],
      keys: [{ ...defaultKeys(this.defaultMerchantId), createdAt: this.nowMs(), expiresAt: null, revokedAt: null }],
      rateLimits: { ...DEFAULT_RATE_LIMITS },
    })
  }
}

/**
 * The default merchant's keys: the readable fixed pair for `demo-shop`; for a renamed
 * default merchant, derived from its id so they stay the same across restarts.
 */
export function defaultKeys(merchantId: string): { publishableKey: string; secretKey: string } {
  if (merchantId === "demo-shop") {
    return { publishableKey: DEFAULT_PUBLISHABLE_KEY, secretKey: DEFAULT_SECRET_KEY }
  }
  const derive = (label: string, length: number) =>
    createHash("sha256").update(`${label}:${merchantId}`).digest("base64").replace(/[^0-9A-Za-z]/g, "").slice(0, length).padEnd(length, "0")
  return { publishableKey: `pk_${derive("pk", 24)}`, secretKey: `sk_${derive("sk", 32)}` }
}

function randomPair(now: number): ApiKeyPair {
  return {
    publishableKey: `pk_${randomAlphanumeric(24)}`,
    secretKey: `sk_${randomAlphanumeric(32)}`,
    createdAt: now,
    expiresAt: null,
    revokedAt: null,
  }
}
