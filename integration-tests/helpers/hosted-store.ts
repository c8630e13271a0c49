import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createApiKeysWorkflow, createCartWorkflow, createProductsWorkflow, createRegionsWorkflow, createSalesChannelsWorkflow, createUserAccountWorkflow, linkSalesChannelsToApiKeyWorkflow } from "@medusajs/medusa/core-flows"
import { randomBytes } from "node:crypto"
import { request } from "undici"
import { registerWebhookEndpoint, type RegisteredEndpoint } from "../../src/cli/register-webhook-endpoint"
import { EmbeddedCardClient } from "../../src/lib/embedded"
import { startSandbox, type SandboxHandle } from "medusa-payment-tw-sandbox"
import { settle, watchStore } from "./settle"
import { providerId, providerKey, webhookPath } from "../../src/providers/core/provider-keys"

export { settle }

/**
 * Shared set-up of the hosted-checkout store tests: a sandbox over real HTTP
 * that the app (booted from medusa-config.ts) talks to, and helpers that drive
 * a shopper through the store API and the sandbox's hosted pages.
 */
/** The test store registers each provider with its identifier as id (medusa-config.ts). */
export const PROVIDER_KEY = providerKey("hosted-checkout", "hosted-checkout")
export const PROVIDER_ID = providerId(PROVIDER_KEY)
export const HOOK_PATH = webhookPath(PROVIDER_KEY)
export const SUCCESS_CARD = "4242424242424242"
export const REFUSED_CARD = "4000000000000051"
export const THREE_DS_CARD = "4000000000003006"
export const REFUND_REJECTED_CARD = "4000000000008005"
export const STOREFRONT = "http://localhost:8000"

export const EMBEDDED_PROVIDER_KEY = providerKey("embedded-card", "embedded-card")
export const EMBEDDED_PROVIDER_ID = providerId(EMBEDDED_PROVIDER_KEY)
export const EMBEDDED_HOOK_PATH = webhookPath(EMBEDDED_PROVIDER_KEY)

/**
 * Starts the sandbox before the app boots (top-level hooks run before the
 * runner's), and registers the store's embedded webhook endpoint so that the
 * app boots with its signing secret, as a merchant would configure it.
 */
export function useSandbox() {
  const state: { sandbox?: SandboxHandle; webhook?: RegisteredEndpoint } = {}
  beforeAll(async () => {
    state.sandbox = await startSandbox({ tickMs: 100, notificationTimeoutMs: 3_000, webhookTimeoutMs: 3_000 })
    process.env.TW_SANDBOX_URL = state.sandbox.url
    process.env.STOREFRONT_URL = STOREFRONT
    const client = new EmbeddedCardClient({ secretKey: state.sandbox.embedded.secretKey, baseUrl: state.sandbox.embedded.baseUrl })
    // The app's address is known only once it runs: `seedStore` points the endpoint at it.
    state.webhook = await registerWebhookEndpoint(client, `http://localhost:9${EMBEDDED_HOOK_PATH}`)
    await client.close()
    process.env.TW_EMBEDDED_WEBHOOK_SECRETS = state.webhook.secret
  })
  afterAll(async () => {
    await state.sandbox?.close()
  })
  return {
    get sandbox(): SandboxHandle {
      if (!state.sandbox) {
        throw new Error("sandbox not started")
      }
      return state.sandbox
    },
    get webhook(): RegisteredEndpoint {
      if (!state.webhook) {
        throw new Error("sandbox not started")
      }
      return state.webhook
    },
  }
}

/**
 * The sandbox outlives the runner's database resets between tests: turn the
 * store's webhook endpoint off after a test and settle the deliveries already
 * on the way, so one test's late events cannot land in the next test's
 * database (where their sessions no longer exist and the provider would
 * rightly refund them as orphans). `seedStore` turns it on again.
 */
export async function quietEmbeddedWebhooks(sandbox: SandboxHandle) {
  const { webhookEndpoints } = await control(sandbox, "GET", "/webhook-endpoints")
  for (const endpoint of webhookEndpoints as Array<{ id: string }>) {
    await updateEmbeddedEndpoint(sandbox, endpoint.id, { status: "disabled" })
  }
  await settle()
}

/** Changes the store's embedded webhook endpoint at the service (url, status). */
export async function updateEmbeddedEndpoint(sandbox: SandboxHandle, id: string, changes: { url?: string; status?: "enabled" | "disabled" }) {
  const res = await fetch(`${sandbox.embedded.baseUrl}/v1/webhooks/${id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${sandbox.embedded.secretKey}`, "content-type": "application/json" },
    body: JSON.stringify(changes),
  })
  if (!res.ok) {
    throw new Error(`updating webhook endpoint ${id}: ${res.status} ${await res.text()}`)
  }
}

export async function control(sandbox: SandboxHandle, method: string, path: string, body?: unknown) {
  const res = await request(`${sandbox.controlUrl}${path}`, {
    method: method as "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.body.text()
  if (res.statusCode >= 300) {
    throw new Error(`sandbox ${method} ${path}: ${res.statusCode} ${text}`)
  }
  return text ? JSON.parse(text) : undefined
}

/** How often the store called one hosted endpoint (`METHOD /template`), by the sandbox's tally of API calls. */
export async function hostedCalls(sandbox: SandboxHandle, endpoint: string): Promise<number> {
  const { apiCalls } = await control(sandbox, "GET", "/api-calls?api=hosted")
  return (apiCalls as Array<{ endpoint: string; calls: number }>).filter((c) => c.endpoint === endpoint).reduce((n, c) => n + c.calls, 0)
}

/** How often the store read hosted transactions (`GET /transactions/{id}`). */
export const transactionReads = (sandbox: SandboxHandle) => hostedCalls(sandbox, "GET /transactions/{id}")

/** Points the sandbox's embedded webhook endpoints at this app, and turns them on. */
export async function pointEmbeddedWebhooks(sandbox: SandboxHandle, appUrl: string) {
  const { webhookEndpoints } = await control(sandbox, "GET", "/webhook-endpoints")
  for (const endpoint of webhookEndpoints as Array<{ id: string }>) {
    await updateEmbeddedEndpoint(sandbox, endpoint.id, { url: `${appUrl}${EMBEDDED_HOOK_PATH}`, status: "enabled" })
  }
}

export interface Store {
  regionId: string
  salesChannelId: string
  publishableKey: string
  headers: { "x-publishable-api-key": string }
}

/**
 * A TWD region with both providers, a sales channel and its publishable key;
 * the sandbox notifies this app. `reset` clears the sandbox first (the
 * embedded tests keep it: a reset would delete the registered webhook endpoint).
 */
export async function seedStore(container: MedusaContainer, sandbox: SandboxHandle, appUrl: string, { reset = true } = {}): Promise<Store> {
  watchStore(container, sandbox)
  if (reset) {
    await control(sandbox, "POST", "/reset")
  } else {
    await pointEmbeddedWebhooks(sandbox, appUrl)
  }
  await control(sandbox, "PATCH", `/merchants/${sandbox.defaultMerchant.merchantId}`, { notifyUrl: `${appUrl}${HOOK_PATH}` })
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Taiwan", currency_code: "twd", countries: ["tw"], payment_providers: [PROVIDER_ID, EMBEDDED_PROVIDER_ID] }] },
  })
  const { result: channels } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Web" }] } })
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "storefront", type: "publishable", created_by: "test" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channels[0].id] } })
  return {
    regionId: regions[0].id,
    salesChannelId: channels[0].id,
    publishableKey: keys[0].token,
    headers: { "x-publishable-api-key": keys[0].token },
  }
}

/** A cart of one custom line (no shipping) worth `amount` TWD. */
export async function createCart(container: MedusaContainer, store: Store, amount: number) {
  const { result } = await createCartWorkflow(container).run({
    input: {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      currency_code: "twd",
      email: "shopper@example.test",
      items: [{ title: "Oolong tea", unit_price: amount, quantity: 1, requires_shipping: false }],
    },
  })
  return result
}

// The test runner's axios instance; typed loosely on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Api = any

/** Payment collection and a hosted-checkout session for a cart, through the store API. */
export async function startPayment(api: Api, store: Store, cartId: string, data: Record<string, unknown> = {}, providerId = PROVIDER_ID) {
  const { data: collectionRes } = await api.post("/store/payment-collections", { cart_id: cartId }, { headers: store.headers })
  const collectionId: string = collectionRes.payment_collection.id
  const { data: sessionRes } = await api.post(
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: providerId, data },
    { headers: store.headers }
  )
  const session = sessionRes.payment_collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === providerId)
  return {
    collectionId,
    session: session as {
      id: string
      status: string
      data: Record<string, unknown> & { checkoutUrl: string; transactionId: string; transactionHid: string; paymentIntentId: string; clientSecret: string }
    },
  }
}

/**
 * What the SDK's card frame does, without a browser: tokenize the card and
 * confirm the intent with the publishable key from the storefront's origin.
 * Returns the confirm answer (the intent, or the 402 error body).
 */
export async function confirmCard(sandbox: SandboxHandle, clientSecret: string, number: string) {
  const headers = {
    authorization: `Bearer ${sandbox.embedded.publishableKey}`,
    "content-type": "application/json",
    origin: STOREFRONT,
  }
  const token = await fetch(`${sandbox.embedded.baseUrl}/v1/tokens`, {
    method: "POST",
    headers,
    body: JSON.stringify({ card: { number, expMonth: 12, expYear: 2034, cvc: "123" } }),
  }).then((r) => r.json())
  const res = await fetch(`${sandbox.embedded.baseUrl}/v1/confirm`, {
    method: "POST",
    headers,
    body: JSON.stringify({ clientSecret, token: token.data.id }),
  })
  return { status: res.status, body: await res.json() }
}

/** The shopper submits the hosted page (as a browser form would); returns the redirect target. */
export async function payPage(checkoutUrl: string, fields: Record<string, string>): Promise<string | undefined> {
  const page = await request(checkoutUrl)
  await page.body.text()
  if (page.statusCode !== 200) {
    throw new Error(`hosted page answered ${page.statusCode}`)
  }
  const res = await request(checkoutUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  })
  await res.body.text()
  return res.headers.location as string | undefined
}

export const card = (number: string) => ({ method: "card", cardNumber: number, cardExpiry: "12/34", cardCvc: "123" })

/** An unsigned `charge` notification saying a one-time session's transaction is paid, as anyone can send it: its ids are in every storefront's session data. */
export const forgedCharged = (sandbox: SandboxHandle, session: { id: string; data: { transactionId: string; transactionHid: string } }, amount: number) => ({
  purpose: "charge",
  id: session.data.transactionId,
  transactionId: session.data.transactionId,
  transactionHid: session.data.transactionHid,
  merchantId: sandbox.defaultMerchant.merchantId,
  orderId: session.id,
  customId: session.id,
  action: "onetime",
  status: "charged",
  success: true,
  amount,
  currency: "twd",
})

export async function completeCart(api: Api, store: Store, cartId: string) {
  return api.post(`/store/carts/${cartId}/complete`, {}, { headers: store.headers }).catch((error: { response?: unknown }) => {
    if (error.response) {
      return error.response
    }
    throw error
  })
}

/** Polls a condition; a minute by default, which a loaded machine may need and a green run never waits out. */
export async function waitFor<T>(find: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await find()
    if (found) {
      return found
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** The order placed from a cart, with its payments, or undefined. */
export async function orderOfCart(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  if (!links[0]) {
    return undefined
  }
  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "status",
      "payment_status",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.payments.id",
      "payment_collections.payments.amount",
      "payment_collections.payments.data",
      "payment_collections.payments.captured_at",
      "payment_collections.payments.canceled_at",
      "payment_collections.payments.captures.id",
      "payment_collections.payments.refunds.id",
      "payment_collections.payments.refunds.amount",
    ],
    filters: { id: links[0].order_id },
  })
  return orders[0]
}

/** Waits until the cart's order exists with its payment captured, and returns it. */
export function capturedOrder(container: MedusaContainer, cartId: string) {
  return waitFor(async () => {
    const order = await orderOfCart(container, cartId)
    return order?.payment_collections?.[0]?.payments?.[0]?.captured_at ? order : undefined
  }, "a captured order")
}

/**
 * The order placed and captured, then, once the store has acted on every
 * delivery (late and duplicated ones too), still exactly one payment and one capture.
 */
export async function expectOneCapturedOrder(container: MedusaContainer, cartId: string, collectionId: string) {
  const order = await capturedOrder(container, cartId)
  await settle()
  const payments = await paymentsOf(container, collectionId)
  expect(payments).toHaveLength(1)
  expect(payments[0].captures).toHaveLength(1)
  return order
}

/** Every payment of a collection (orders or not). */
export async function paymentsOf(container: MedusaContainer, collectionId: string) {
  const paymentModule = container.resolve(Modules.PAYMENT)
  const [collection] = await paymentModule.listPaymentCollections({ id: collectionId }, { relations: ["payments", "payments.captures", "payments.refunds"] })
  return collection?.payments ?? []
}

/** An admin user and its bearer token, through the real auth routes. */
export async function adminToken(api: Api, container: MedusaContainer): Promise<{ authorization: string }> {
  const email = "admin@example.test"
  const password = "admin-password-1"
  await api.post("/auth/user/emailpass/register", { email, password })
  const authModule = container.resolve(Modules.AUTH)
  const [identity] = await authModule.listAuthIdentities({ provider_identities: { entity_id: email } } as never)
  await createUserAccountWorkflow(container).run({ input: { authIdentityId: identity.id, userData: { email } } })
  const { data } = await api.post("/auth/user/emailpass", { email, password })
  return { authorization: `Bearer ${data.token}` }
}

/**
 * A published product of one uninventoried variant in the store's sales channel, offered as a
 * subscription: the plan is created through the admin route, as a merchant would.
 */
export async function createProductWithPlan(api: Api, container: MedusaContainer, store: Store, admin: Record<string, string>, plan: Record<string, unknown>, price = 1200) {
  const { result } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: `Tea box ${randomBytes(3).toString("hex")}`,
          status: "published",
          options: [{ title: "Size", values: ["Box"] }],
          variants: [{ title: "Box", options: { Size: "Box" }, manage_inventory: false, prices: [{ amount: price, currency_code: "twd" }] }],
          sales_channels: [{ id: store.salesChannelId }],
        },
      ],
    },
  })
  const variantId = result[0].variants[0].id
  const { data } = await api.post(`/admin/product-variants/${variantId}/tw-subscription-plans`, plan, { headers: admin })
  return { productId: result[0].id, variantId, planId: data.plan.id as string }
}
