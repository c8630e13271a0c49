import Medusa, { type ClientHeaders } from "@medusajs/js-sdk"

type FetchInit = Parameters<Medusa["client"]["fetch"]>[1]

/** `a=1&b[0]=x&c[d]=y`: how the js-sdk (qs) writes a query, nulls and undefined left out. */
function appendQuery(params: URLSearchParams, value: unknown, key: string) {
  if (value === null || value === undefined) {
    return
  }
  if (typeof value === "object" && !(value instanceof Date)) {
    for (const [inner, item] of Object.entries(value)) {
      appendQuery(params, item, `${key}[${inner}]`)
    }
    return
  }
  params.append(key, value instanceof Date ? value.toISOString() : String(value))
}

/** The headers of a call: the js-sdk's JSON defaults, the client's locale, then the call's own (null removes one). */
function callHeaders(locale: string, own: ClientHeaders | undefined): Headers {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" })
  if (locale) {
    headers.set("x-medusa-locale", locale)
  }
  for (const [name, value] of Object.entries(own ?? {})) {
    if (value === null) {
      headers.delete(name)
    } else if (typeof value === "string") {
      headers.set(name, value)
    }
  }
  return headers
}

/**
 * A js-sdk client for the storefront's `storeProxy` route (`baseUrl`: the page's origin and the route's
 * path), whose failed calls keep the store's whole answer. The js-sdk up to 2.21 throws a `FetchError`
 * with the status and message only, so the `code` the store's error body carries (a declined card's, a
 * refused invoice's) would never reach the shopper's text; this client's `FetchError`s also hold `code`
 * and `body`, which every function of the kit reads (`storeCall`). Cookies go to the same origin only.
 */
export function proxyStoreClient(baseUrl: string): Medusa {
  const sdk = new Medusa({ baseUrl, auth: { type: "session", fetchCredentials: "same-origin" } })
  const base = new URL(baseUrl)
  sdk.client.fetch_ = async (input: Parameters<typeof fetch>[0], init: FetchInit = {}) => {
    const { query, headers: own, body, ...rest } = init
    const url = typeof input === "string" || input instanceof URL ? new URL(`${base.pathname.replace(/\/$/, "")}/${String(input).replace(/^\//, "")}`, base.origin) : new URL(input.url)
    if (query) {
      const params = new URLSearchParams(url.search)
      for (const [key, value] of Object.entries(query)) {
        appendQuery(params, value, key)
      }
      url.search = params.toString()
    }
    const headers = callHeaders(sdk.client.locale, own)
    const json = body !== undefined && body !== null && headers.get("content-type")?.includes("application/json") && typeof body === "object" && !(body instanceof Blob || body instanceof FormData || body instanceof URLSearchParams || body instanceof ArrayBuffer || ArrayBuffer.isView(body))
    const answer = await fetch(url, { ...rest, headers, credentials: "same-origin", ...(body !== undefined && body !== null ? { body: json ? JSON.stringify(body) : (body as BodyInit) } : {}) })
    if (answer.status >= 300) {
      const errorBody = (await answer.json().catch(() => ({}))) as { message?: unknown; code?: unknown }
      const message = typeof errorBody.message === "string" ? errorBody.message : answer.statusText
      // What the js-sdk's FetchError holds (not imported: not every js-sdk 2.18+ exports it), and the body.
      const error = Object.assign(new Error(message), { status: answer.status, statusText: answer.statusText, body: errorBody })
      error.name = "FetchError"
      throw typeof errorBody.code === "string" ? Object.assign(error, { code: errorBody.code }) : error
    }
    return (headers.get("accept")?.includes("application/json") ? answer.json() : answer) as Promise<Response>
  }
  return sdk
}
