import { storeProxy } from "../src/core/store-proxy.js"

interface Call {
  url: string
  method: string
  headers: Headers
  body: string | undefined
}

/** A proxy whose Medusa is a recorder answering 200 with a JSON body. */
function recordingProxy(headers: () => Record<string, string> = () => ({ authorization: "Bearer customer-jwt" })) {
  const calls: Call[] = []
  const fetcher = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: String(init.method),
      headers: new Headers(init.headers),
      body: init.body ? new TextDecoder().decode(init.body as ArrayBuffer) : undefined,
    })
    return new Response(JSON.stringify({ ok: true }), { status: 201, headers: { "content-type": "application/json; charset=utf-8", "set-cookie": "x=1" } })
  }) as unknown as typeof fetch
  const proxy = storeProxy({ backendUrl: "http://medusa.test:9000/", publishableKey: "pk_1", prefix: "/api/", headers, fetch: fetcher })
  return { proxy, calls }
}

describe("storeProxy", () => {
  it("passes a store call on with its query and body, the publishable key and the customer's headers", async () => {
    const { proxy, calls } = recordingProxy()
    const request = new Request("http://shop.test/api/store/carts/cart_1/tw-subscription?fields=id", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", cookie: "_medusa_jwt=secret", "x-publishable-api-key": "pk_forged" },
      body: JSON.stringify({ plan_id: "twplan_1" }),
    })
    const answer = await proxy(request)
    expect(answer.status).toBe(201)
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8")
    expect(answer.headers.get("set-cookie")).toBeNull()
    expect(await answer.json()).toEqual({ ok: true })
    expect(calls).toHaveLength(1)
    const [call] = calls
    expect(call.url).toBe("http://medusa.test:9000/store/carts/cart_1/tw-subscription?fields=id")
    expect(call.method).toBe("POST")
    expect(call.body).toBe('{"plan_id":"twplan_1"}')
    expect(call.headers.get("authorization")).toBe("Bearer customer-jwt")
    expect(call.headers.get("x-publishable-api-key")).toBe("pk_1")
    expect(call.headers.get("content-type")).toBe("application/json")
    // The storefront's cookies stay in the storefront.
    expect(call.headers.get("cookie")).toBeNull()
  })

  it("sends no body with a GET or an empty DELETE, and no authorization for a guest", async () => {
    const { proxy, calls } = recordingProxy(() => ({}))
    await proxy(new Request("http://shop.test/api/store/customers/me/tw-saved-cards"))
    await proxy(new Request("http://shop.test/api/store/customers/me/tw-saved-cards/twcard_1", { method: "DELETE" }))
    expect(calls.map((c) => [c.method, c.body, c.headers.get("authorization")])).toEqual([
      ["GET", undefined, null],
      ["DELETE", undefined, null],
    ])
  })

  it.each([
    ["another API", "http://shop.test/api/admin/orders"],
    ["the auth routes", "http://shop.test/api/auth/customer/emailpass"],
    ["a path outside the prefix", "http://shop.test/store/carts/cart_1"],
    ["an encoded slash", "http://shop.test/api/store/carts%2F..%2F..%2Fadmin%2Forders"],
    ["an encoded backslash", "http://shop.test/api/store/carts%5C..%5Cadmin"],
  ])("answers 404 to %s without calling Medusa", async (_what, url) => {
    const { proxy, calls } = recordingProxy()
    const answer = await proxy(new Request(url))
    expect(answer.status).toBe(404)
    expect(calls).toHaveLength(0)
  })

  it("answers 404 to a method the kit never uses", async () => {
    const { proxy, calls } = recordingProxy()
    expect((await proxy(new Request("http://shop.test/api/store/carts/cart_1", { method: "PUT", body: "{}" }))).status).toBe(404)
    expect(calls).toHaveLength(0)
  })

  it("keeps the URL parser's resolution of dot segments inside the store API or refuses it", async () => {
    const { proxy, calls } = recordingProxy()
    // new URL() resolves "/api/store/../admin" to "/api/admin": outside /store/.
    expect((await proxy(new Request("http://shop.test/api/store/../admin/users"))).status).toBe(404)
    expect(calls).toHaveLength(0)
  })
})
