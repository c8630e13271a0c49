import type { SandboxRequest } from "../server"
import type { EmbeddedContext } from "./context"
import { ApiError } from "./envelope"
import { type EmbeddedAccount, type KeyKind, type KeyMatch, PUBLISHABLE_KEY_PATTERN, SECRET_KEY_PATTERN } from "./keys"

/**
 * `Authorization: Bearer <key>` (spec 5). Every failure is 401 `AUTH_INVALID_KEY`; only the
 * message tells the cause: missing or malformed header, key of the wrong form, unknown,
 * revoked, expired after regeneration, publishable key on a backend endpoint, merchant not
 * active, online payment service not activated, embed not activated. Both key types work
 * on the SDK endpoints.
 */
export function authenticate(
  ctx: EmbeddedContext,
  req: SandboxRequest,
  match: KeyMatch | undefined,
  sdkEndpoint: boolean
): { account: EmbeddedAccount; kind: KeyKind; key: string } {
  const fail = (message: string) => new ApiError(401, "AUTH_INVALID_KEY", message)
  const header = req.headers.authorization
  if (header === undefined || header === "") {
    throw fail("Missing API key: send Authorization: Bearer <key>")
  }
  const key = /^Bearer (\S+)$/.exec(header)?.[1]
  if (!key) {
    throw fail("Malformed Authorization header: expected Bearer <key>")
  }
  if (!PUBLISHABLE_KEY_PATTERN.test(key) && !SECRET_KEY_PATTERN.test(key)) {
    throw fail("Invalid API key format")
  }
  if (!match) {
    throw fail("Invalid API key")
  }
  const now = ctx.core.clock.nowMs()
  if (match.pair.revokedAt !== null && match.pair.revokedAt <= now) {
    throw fail("API key revoked")
  }
  if (match.pair.expiresAt !== null && match.pair.expiresAt <= now) {
    throw fail("API key expired: it was replaced by a newer key more than 24 hours ago")
  }
  if (match.kind === "publishable" && !sdkEndpoint) {
    throw fail("A publishable key cannot be used on this endpoint; use the secret key")
  }
  const merchant = ctx.core.merchants.get(match.account.merchantId)
  if (!merchant || !match.account.merchantActive) {
    throw fail("Merchant account is not active")
  }
  if (!merchant.paymentServiceActive) {
    throw fail("Online payment service is not activated for this merchant")
  }
  if (!match.account.embedActive) {
    throw fail("Embedded payments are not activated for this merchant")
  }
  return { account: match.account, kind: match.kind, key }
}
