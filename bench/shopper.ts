// What a shopper does, over plain HTTP: a cart through the store API, then the
// payment at the sandbox (the hosted page's form, or the embedded card frame's two calls).
import { Agent, request } from "undici"
import type { SandboxHandle } from "medusa-payment-tw-sandbox"
import { type BenchStore, HarnessError } from "./store"

/** Shoppers' browsers: enough sockets that K pages can be submitted in the same instant. */
const browsers = new Agent({ connections: 1024, pipelining: 0 })

export interface PaymentSession {
  cartId: string
  collectionId: string
  sessionId: string
  data: Record<string, unknown>
}

/**
 * A cart of one unit of the catalog's variant, with an address in Taiwan and home delivery;
 * with a logged-in customer's `headers`, the cart is theirs.
 */
export async function createCart(store: BenchStore, email: string, headers?: Record<string, string>, variantId = store.catalog.variantId): Promise<string> {
  const { catalog } = store
  const { data } = await store.api<{ cart: { id: string } }>(
    "POST",
    "/store/carts",
    {
      region_id: catalog.regionId,
      email,
      items: [{ variant_id: variantId, quantity: 1 }],
      shipping_address: { first_name: "Mei", last_name: "Lin", address_1: "No. 7, Section 5, Xinyi Road", city: "Taipei", postal_code: "110", country_code: "tw" },
    },
    { headers }
  )
  await store.api("POST", `/store/carts/${data.cart.id}/shipping-methods`, { option_id: catalog.shippingOptionId }, { headers })
  return data.cart.id
}

/**
 * The cart's payment collection (created once) and a new session of `providerId` in it;
 * `data` and `headers` as a logged-in customer's storefront sends them (a saved card's `{ savedCardId }`).
 */
export async function startSession(
  store: BenchStore,
  cartId: string,
  providerId: string,
  collectionId?: string,
  { data: input, headers }: { data?: Record<string, unknown>; headers?: Record<string, string> } = {}
): Promise<PaymentSession> {
  const collection =
    collectionId ?? (await store.api<{ payment_collection: { id: string } }>("POST", "/store/payment-collections", { cart_id: cartId })).data.payment_collection.id
  const { data } = await store.api<{ payment_collection: { payment_sessions: Array<{ id: string; provider_id: string; data: Record<string, unknown> }> } }>(
    "POST",
    `/store/payment-collections/${collection}/payment-sessions`,
    { provider_id: providerId, ...(input ? { data: input } : {}) },
    { headers }
  )
  const session = data.payment_collection.payment_sessions.find((s) => s.provider_id === providerId)
  if (!session) {
    throw new HarnessError(`cart ${cartId}: no ${providerId} session was created`)
  }
  return { cartId, collectionId: collection, sessionId: session.id, data: session.data ?? {} }
}

/** `POST /store/carts/{id}/complete`, as the storefront's return page does; the answer as it came. */
export async function completeCart(store: BenchStore, cartId: string, headers?: Record<string, string>) {
  return store.api<{ type?: string; message?: string; order?: { id: string }; error?: { message?: string } }>("POST", `/store/carts/${cartId}/complete`, {}, { allowError: true, headers })
}

export const cardFields = (number: string) => ({ method: "card", cardNumber: number, cardExpiry: "12/34", cardCvc: "123" })
export const cvsFields = () => ({ method: "cvs", cvsName: "7-ELEVEN" })

/** The shopper opens the hosted page (a GET, as a browser would before typing). */
export async function openPage(checkoutUrl: string): Promise<void> {
  const page = await request(checkoutUrl, { dispatcher: browsers })
  await page.body.text()
  if (page.statusCode !== 200) {
    throw new HarnessError(`hosted page ${checkoutUrl} answered ${page.statusCode}`)
  }
}

/** The shopper submits the hosted page's form; returns where the page sends the browser. */
export async function submitPage(checkoutUrl: string, fields: Record<string, string>): Promise<string | undefined> {
  const res = await request(checkoutUrl, {
    method: "POST",
    dispatcher: browsers,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
  await res.body.text()
  if (res.statusCode >= 400) {
    throw new HarnessError(`submitting hosted page ${checkoutUrl} answered ${res.statusCode}`)
  }
  return res.headers.location as string | undefined
}

/**
 * What the SDK's card frame does (see the sandbox README): tokenize the card,
 * then confirm the intent with the publishable key from the storefront's origin.
 */
export async function confirmCard(sandbox: SandboxHandle, clientSecret: string, number: string): Promise<{ status: number; intentStatus?: string }> {
  const headers = { authorization: `Bearer ${sandbox.embedded.publishableKey}`, "content-type": "application/json", origin: "http://localhost:8000" }
  const token = await request(`${sandbox.embedded.baseUrl}/v1/tokens`, {
    method: "POST",
    dispatcher: browsers,
    headers,
    body: JSON.stringify({ card: { number, expMonth: 12, expYear: 2034, cvc: "123" } }),
  })
  const tokenBody = (await token.body.json()) as { data?: { id?: string } }
  if (!tokenBody.data?.id) {
    throw new HarnessError(`tokenizing a card answered ${token.statusCode}: ${JSON.stringify(tokenBody).slice(0, 300)}`)
  }
  const confirm = await request(`${sandbox.embedded.baseUrl}/v1/confirm`, {
    method: "POST",
    dispatcher: browsers,
    headers,
    body: JSON.stringify({ clientSecret, token: tokenBody.data.id }),
  })
  const body = (await confirm.body.json()) as { data?: { status?: string } }
  return { status: confirm.statusCode, intentStatus: body.data?.status }
}
