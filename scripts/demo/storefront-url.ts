/**
 * Which storefront the demo store sends shoppers back to: the demo's own (`http://localhost:$STOREFRONT_PORT`),
 * or the merchant's (`--storefront-url`, else `STOREFRONT_URL`), e.g. the official starter on :8000. The
 * store's settings follow from it: both providers' `storefrontUrl` (every return address), the store's and
 * the auth routes' CORS, and the sandbox's allowed domains for the card form (its SDK's origin checks).
 */

export interface DemoStorefront {
  /** The storefront's origin, without a trailing slash. */
  url: string
  /** True for the demo's own storefront, which the demo starts; false for the merchant's. */
  own: boolean
}

export function demoStorefront({ flag, env, port }: { flag?: string; env?: string; port: number }): DemoStorefront {
  const given = flag || env
  if (!given) {
    return { url: `http://localhost:${port}`, own: true }
  }
  const url = URL.canParse(given) ? new URL(given) : undefined
  if (!url || !["http:", "https:"].includes(url.protocol)) {
    throw new Error(`--storefront-url must be an absolute URL such as http://localhost:8000, not "${given}"`)
  }
  if (url.pathname !== "/" || url.search || url.hash) {
    throw new Error(`--storefront-url is the storefront's origin (the return paths are the providers' own), not "${given}"`)
  }
  return { url: url.origin, own: false }
}

/** A comma-separated CORS list with the storefront's origin added (Medusa's default when unset). */
function withOrigin(list: string | undefined, fallback: string, origin: string): string {
  const origins = (list || fallback).split(",").map((entry) => entry.trim()).filter(Boolean)
  return [...new Set([...origins, origin])].join(",")
}

/** The store's environment for that storefront (medusa-config.ts reads it). */
export function storefrontEnv(storefront: DemoStorefront, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    STOREFRONT_URL: storefront.url,
    STORE_CORS: withOrigin(env.STORE_CORS, "http://localhost:8000", storefront.url),
    AUTH_CORS: withOrigin(env.AUTH_CORS, "http://localhost:9000,http://localhost:8000", storefront.url),
  }
}

/**
 * Adds the storefront's host to the sandbox merchant's allowed domains, as a merchant does in the service's
 * console: the card form's frame and SDK calls, and the card form's return address, are refused from any
 * other host. The sandbox takes http only on localhost and 127.0.0.1, https elsewhere.
 */
export async function allowStorefront(controlUrl: string, merchantId: string, storefront: DemoStorefront): Promise<string[]> {
  const path = `${controlUrl}/merchants/${encodeURIComponent(merchantId)}/embedded`
  const current = (await answer(await fetch(path), path)) as { allowedDomains: string[] }
  const host = new URL(storefront.url).hostname
  if (current.allowedDomains.some((domain) => domain.toLowerCase() === host.toLowerCase())) {
    return current.allowedDomains
  }
  const allowedDomains = [...current.allowedDomains, host]
  const res = await fetch(path, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ allowedDomains }) })
  return ((await answer(res, path)) as { allowedDomains: string[] }).allowedDomains
}

async function answer(res: Response, path: string): Promise<unknown> {
  if (!res.ok) {
    throw new Error(`sandbox ${path} answered ${res.status}: ${await res.text()}`)
  }
  return res.json()
}
