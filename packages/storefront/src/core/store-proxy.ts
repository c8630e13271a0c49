/**
 * A route of the storefront that passes the kit's store calls on to Medusa,
 * for a storefront that keeps the customer's login where the browser's
 * scripts cannot read it (the official starter keeps it in an httpOnly
 * cookie and reads it on the server). The browser calls the storefront's own
 * origin, so Medusa needs no CORS setting for it; the route adds the
 * publishable key and the customer's `authorization`, and forwards the store
 * API (`/store/*`) only. Web-standard `Request` in, `Response` out: a Next.js
 * route handler, or any server with the Fetch API.
 */
export interface StoreProxyOptions {
  /** The Medusa server, e.g. `NEXT_PUBLIC_MEDUSA_BACKEND_URL`. */
  backendUrl: string
  publishableKey?: string
  /** The part of the route's path before `/store/`: `"/api"` for `app/api/store/[...path]/route.ts`. */
  prefix?: string
  /** The customer's headers for each call, read on the server (the starter's `getAuthHeaders`). */
  headers?: () => Promise<Record<string, string>> | Record<string, string>
  /** The `fetch` to call Medusa with; the global one by default. */
  fetch?: typeof fetch
}

const METHODS = new Set(["GET", "POST", "DELETE"])
/** What the browser may say about its call; anything else (cookies above all) stays in the storefront. */
const REQUEST_HEADERS = ["accept", "content-type", "x-medusa-locale"]
/** A path that could leave `/store/` once Medusa decodes it. */
const ESCAPING = /%2f|%5c|\\|(^|\/)\.\.?(\/|$)/i

const notFound = () => new Response(JSON.stringify({ type: "not_found", message: "Not found" }), { status: 404, headers: { "content-type": "application/json" } })

/** The route: `(request) => Promise<Response>`, for GET, POST and DELETE. */
export function storeProxy(options: StoreProxyOptions): (request: Request) => Promise<Response> {
  const backend = options.backendUrl.replace(/\/+$/, "")
  const prefix = (options.prefix ?? "").replace(/\/+$/, "")
  return async (request) => {
    const url = new URL(request.url)
    const path = url.pathname.startsWith(`${prefix}/store/`) ? url.pathname.slice(prefix.length) : undefined
    // The customer's login goes with every call, so nothing but the store API is reachable.
    if (!path || !METHODS.has(request.method) || ESCAPING.test(path)) {
      return notFound()
    }
    const headers = new Headers()
    for (const name of REQUEST_HEADERS) {
      const value = request.headers.get(name)
      if (value) {
        headers.set(name, value)
      }
    }
    if (options.publishableKey) {
      headers.set("x-publishable-api-key", options.publishableKey)
    }
    for (const [name, value] of Object.entries((await options.headers?.()) ?? {})) {
      headers.set(name, value)
    }
    const body = request.method === "GET" ? undefined : await request.arrayBuffer()
    const answer = await (options.fetch ?? fetch)(`${backend}${path}${url.search}`, {
      method: request.method,
      headers,
      ...(body && body.byteLength > 0 ? { body } : {}),
    })
    const type = answer.headers.get("content-type")
    return new Response(answer.body, { status: answer.status, headers: type ? { "content-type": type } : {} })
  }
}
