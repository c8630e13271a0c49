import type { SandboxRequest } from "../server"
import { ApiError, invalid } from "./envelope"
import type { EmbeddedAccount } from "./keys"

/**
 * The allowed-domain list (spec 5) and the https rule.
 *
 * - A host matches an entry when the hostnames are equal, ignoring case (no ports, no
 *   wildcards).
 * - Production requires https; the sandbox is a test environment and also accepts http
 *   when the host is `localhost`, `127.0.0.1` or `[::1]`. Anything else over http is 400.
 * - The checkout page's origin: the browser's `Origin` header when the SDK calls the API
 *   from the checkout page itself (`retrievePaymentIntent`); when the payment frame calls
 *   (its requests come from the sandbox's own origin), the `Twpay-Checkout-Origin` header,
 *   which the frame sets from the origin the SDK gave it (and which the frame checks
 *   against `location.ancestorOrigins` / `document.referrer`). A publishable-key request
 *   carrying neither (a server-side tool) is not origin-checked.
 */

export const CHECKOUT_ORIGIN_HEADER = "twpay-checkout-origin"
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname.toLowerCase())
}

export function hostAllowed(account: EmbeddedAccount, hostname: string): boolean {
  const host = hostname.toLowerCase()
  return account.allowedDomains.some((d) => d.toLowerCase() === host)
}

/** An absolute https URL (http only on a local host); its host must be in the list. */
export function checkMerchantUrl(value: string, field: string, account: EmbeddedAccount): string {
  const url = parseWebUrl(value, field)
  if (!hostAllowed(account, url.hostname)) {
    throw new ApiError(403, "DOMAIN_NOT_REGISTERED", `The host ${url.hostname} of ${field} is not in the allowed-domain list`, field)
  }
  return value
}

/** Webhook addresses follow the same scheme rule but need no registered domain. */
export function parseWebUrl(value: string, field: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalid(field, `${field} must be an absolute URL`)
  }
  if (value.length > 2048) {
    throw invalid(field, `${field} must be at most 2048 characters`)
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLocalHost(url.hostname))) {
    throw invalid(field, `${field} must use https (http is accepted only for localhost and 127.0.0.1 in the sandbox)`)
  }
  if (url.username || url.password) {
    throw invalid(field, `${field} must not contain credentials`)
  }
  return url
}

/** The checkout page's origin as this request tells it, or null when it tells none. */
export function checkoutOriginOf(req: SandboxRequest): string | null {
  const origin = header(req, "origin")
  const ownOrigin = `http://${header(req, "host") ?? ""}`
  if (origin && origin !== "null" && origin !== ownOrigin) {
    return origin
  }
  return header(req, CHECKOUT_ORIGIN_HEADER) ?? null
}

export function assertOriginAllowed(origin: string, account: EmbeddedAccount): void {
  let url: URL | undefined
  try {
    url = new URL(origin)
  } catch {
    url = undefined
  }
  const secure = url && (url.protocol === "https:" || (url.protocol === "http:" && isLocalHost(url.hostname)))
  if (!url || !secure || !hostAllowed(account, url.hostname)) {
    throw new ApiError(403, "FORBIDDEN_ORIGIN", `The checkout page origin ${origin} is not allowed for this key`)
  }
}

function header(req: SandboxRequest, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}
