import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { startHostedCheckout } from "../src/core/hosted-checkout.js"
import { TwPaymentError } from "../src/core/payment-error.js"
import { listSavedCards } from "../src/core/saved-cards.js"
import { proxyStoreClient } from "../src/core/store-client.js"
import { storeProxy } from "../src/core/store-proxy.js"
import { messageFor } from "../src/messages/index.js"

/**
 * A storefront (a real HTTP server) whose `/api/store/*` is the kit's `storeProxy` before a Medusa that
 * answers as the plugin's store does: the error body's `code` must reach the kit's error, which the
 * js-sdk's own client drops.
 */
interface Seen {
  url: string
  method: string
  headers: Headers
  body: string
}
const seen: Seen[] = []
const refusal = { type: "invalid_data", code: "payment_method_not_offered", message: "Payment method(s) not offered by this store: linePay." }

const medusa = (async (url: string, init: RequestInit) => {
  seen.push({ url, method: String(init.method), headers: new Headers(init.headers), body: init.body ? new TextDecoder().decode(init.body as ArrayBuffer) : "" })
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  if (url.includes("/payment-sessions")) {
    return json(400, refusal)
  }
  if (url.includes("/tw-saved-cards")) {
    return json(200, { saved_cards: [] })
  }
  return json(401, { type: "unauthorized", message: "Unauthorized" })
}) as unknown as typeof fetch

const proxy = storeProxy({ backendUrl: "http://medusa.test", publishableKey: "pk_1", prefix: "/api", fetch: medusa })
let server: Server
let origin: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = chunks.length ? Buffer.concat(chunks) : undefined
      void proxy(new Request(`${origin}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, ...(body ? { body } : {}) })).then(async (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers))
        res.end(Buffer.from(await answer.arrayBuffer()))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const cart = { id: "cart_1", payment_collection: { id: "paycol_1" } } as unknown as HttpTypes.StoreCart

describe("proxyStoreClient: the store's error codes reach the kit", () => {
  it("the js-sdk's own client keeps the status and message only", async () => {
    const sdk = new Medusa({ baseUrl: `${origin}/api` })
    const error = await startHostedCheckout(sdk, cart, { methods: ["linePay"] }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(TwPaymentError)
    expect(error).toMatchObject({ status: 400, message: refusal.message, code: undefined })
  })

  it("the kit's client keeps the code too, through the js-sdk's store methods and the plugin's routes", async () => {
    const sdk = proxyStoreClient(`${origin}/api/`)
    const error = (await startHostedCheckout(sdk, cart, { methods: ["linePay"] }).catch((failure: unknown) => failure)) as TwPaymentError
    expect(error).toBeInstanceOf(TwPaymentError)
    expect({ code: error.code, status: error.status, message: error.message }).toEqual({ code: "payment_method_not_offered", status: 400, message: refusal.message })
    // What the shopper reads: the code's text in their language, not the generic one.
    expect(messageFor(error.code!, "zh-TW")).not.toBe(messageFor("generic_error", "zh-TW"))
    const session = seen.at(-1)!
    expect(session).toMatchObject({ url: "http://medusa.test/store/payment-collections/paycol_1/payment-sessions", method: "POST" })
    expect(JSON.parse(session.body)).toMatchObject({ provider_id: "pp_hosted-checkout_hosted-checkout", data: { methods: ["linePay"] } })

    // An answer without a code: the status and message, as before.
    await expect(sdk.client.fetch("/store/customers/me")).rejects.toMatchObject({ status: 401, message: "Unauthorized" })
  })

  it("sends what the js-sdk sends: the query as qs writes it, JSON, and the call's headers", async () => {
    const sdk = proxyStoreClient(`${origin}/api`)
    expect(await listSavedCards(sdk, { "x-medusa-locale": "zh-TW" })).toEqual([])
    expect(seen.at(-1)!.headers.get("x-medusa-locale")).toBe("zh-TW")
    await sdk.client.fetch("/store/tw-saved-cards", { query: { fields: "id,last4", filter: { status: ["active"] }, none: undefined } })
    const call = seen.at(-1)!
    expect(decodeURIComponent(new URL(call.url).search)).toBe("?fields=id,last4&filter[status][0]=active")
    expect(call.headers.get("accept")).toBe("application/json")
    expect(call.headers.get("x-publishable-api-key")).toBe("pk_1")
  })
})
