// A shopper and a merchant of the check's stock store, over plain HTTP: the store API as a
// storefront calls it (a guest's, and a registered customer's saved cards and subscription, the
// routes of docs/saved-cards.md and docs/subscriptions.md), the sandbox's hosted, binding and
// recurring pages as a browser submits them, the SDK's card-frame calls, the admin API to look at
// orders, refund a payment and add a subscription plan, and the service's own query endpoints (the
// spec's) to see a refund and a cancelled schedule there. No Medusa or plugin code runs here.
import { createHash } from "node:crypto"
import { CheckError, waitFor } from "./processes"

export interface Seeded {
  regionId: string
  salesChannelId: string
  publishableKey: string
  carts: Record<string, string>
  /** The variant priced with cents, which the plugin's boot check must name. */
  centsVariantId: string
  /** A variant at a whole TWD price: the saved-card cart's item and the subscription plan's variant. */
  wholeVariantId: string
}

/** The test card that succeeds on both APIs (packages/sandbox/README.md, test cards). */
export const SUCCESS_CARD = "4242424242424242"
/** The store's storefront (none runs): on localhost, which the sandbox's default merchant allows for the SDK. */
export const STOREFRONT_ORIGIN = "http://localhost:8000"

async function call(method: string, url: string, { headers = {}, body }: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: Error) => {
    throw new CheckError(`${method} ${url} failed: ${(error.cause as Error | undefined)?.message ?? error.message}`)
  })
  const text = await res.text()
  if (!res.ok) {
    throw new CheckError(`${method} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 500)}`)
  }
  return text ? JSON.parse(text) : undefined
}

export interface Session {
  id: string
  provider_id: string
  status: string
  data: Record<string, unknown>
  /** What core passed the provider: for a logged-in customer, `account_holder` (its `data` the plugin's mirror of the active cards). */
  context?: { account_holder?: { id: string; data?: Record<string, unknown> } }
}

export class Shopper {
  constructor(
    protected readonly storeUrl: string,
    protected readonly seeded: Seeded
  ) {}

  protected get headers(): Record<string, string> {
    return { "x-publishable-api-key": this.seeded.publishableKey }
  }

  /** Registers a customer as the storefront's sign-up does (auth identity, customer, login). */
  async register(email: string, password: string): Promise<Customer> {
    const { token: registration } = await call("POST", `${this.storeUrl}/auth/customer/emailpass/register`, { body: { email, password } })
    await call("POST", `${this.storeUrl}/store/customers`, { headers: { ...this.headers, authorization: `Bearer ${registration}` }, body: { email, first_name: "Mei", last_name: "Lin" } })
    const { token } = await call("POST", `${this.storeUrl}/auth/customer/emailpass`, { body: { email, password } })
    return new Customer(this.storeUrl, this.seeded, token)
  }

  /** A payment collection for the cart and a session with `providerId`, as the storefront creates them. */
  async startPayment(cartId: string, providerId: string, data: Record<string, unknown>): Promise<Session> {
    const { payment_collection: collection } = await call("POST", `${this.storeUrl}/store/payment-collections`, { headers: this.headers, body: { cart_id: cartId } })
    const { payment_collection: withSession } = await call("POST", `${this.storeUrl}/store/payment-collections/${collection.id}/payment-sessions`, {
      headers: this.headers,
      body: { provider_id: providerId, data },
    })
    const session = (withSession.payment_sessions as Session[]).find((s) => s.provider_id === providerId)
    if (!session) {
      throw new CheckError(`the store created no ${providerId} session: ${JSON.stringify(withSession.payment_sessions)}`)
    }
    return session
  }

  /** The hosted page paid by card, submitted as a browser submits its form; returns where it sends the shopper. */
  async payHostedPage(checkoutUrl: string): Promise<string> {
    const page = await fetch(checkoutUrl)
    const html = await page.text()
    if (page.status !== 200 || !html.includes('id="payment-form"')) {
      throw new CheckError(`the hosted checkout page ${new URL(checkoutUrl).pathname} answered ${page.status} without its payment form`)
    }
    const res = await fetch(checkoutUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ method: "card", cardNumber: SUCCESS_CARD, cardExpiry: "12/34", cardCvc: "123" }).toString(),
      redirect: "manual",
    })
    await res.text()
    const location = res.headers.get("location")
    if (res.status !== 303 || !location) {
      throw new CheckError(`paying the hosted page answered ${res.status} (location ${location}) instead of sending the shopper on`)
    }
    return location
  }

  /** The SDK the session points the storefront at matches the integrity hash it gives, as the browser will check. */
  async checkSdk(session: Session) {
    const { sdkUrl, sdkIntegrity } = session.data as { sdkUrl?: string; sdkIntegrity?: string }
    if (!sdkUrl || !sdkIntegrity) {
      throw new CheckError(`the embedded-card session has no sdkUrl or sdkIntegrity in its data (keys: ${Object.keys(session.data).join(", ")})`)
    }
    const res = await fetch(sdkUrl)
    const body = Buffer.from(await res.arrayBuffer())
    const actual = `sha384-${createHash("sha384").update(body).digest("base64")}`
    if (res.status !== 200 || actual !== sdkIntegrity) {
      throw new CheckError(`the SDK at ${sdkUrl} (${res.status}) hashes to ${actual}, the session's sdkIntegrity is ${sdkIntegrity}: a browser would refuse it`)
    }
  }

  /** What the SDK's card frame does: tokenize the card, then confirm the intent, with the publishable key from the session. */
  async confirmCard(apiBaseUrl: string, session: Session): Promise<{ status: string }> {
    const { clientSecret, publishableKey } = session.data as { clientSecret?: string; publishableKey?: string }
    if (!clientSecret || !publishableKey) {
      throw new CheckError(`the embedded-card session has no clientSecret or publishableKey in its data (keys: ${Object.keys(session.data).join(", ")})`)
    }
    const headers = { authorization: `Bearer ${publishableKey}`, origin: STOREFRONT_ORIGIN }
    const token = await call("POST", `${apiBaseUrl}/v1/tokens`, { headers, body: { card: { number: SUCCESS_CARD, expMonth: 12, expYear: 2034, cvc: "123" } } })
    const confirmed = await call("POST", `${apiBaseUrl}/v1/confirm`, { headers, body: { clientSecret, token: token.data.id } })
    return confirmed.data
  }

  /** Waits until something (a notification, a webhook) completed the cart; the shopper never came back. */
  async waitForCompletedCart(cartId: string, abort: () => string | undefined, timeoutMs: number) {
    await waitFor(
      `cart ${cartId} to be completed by the payment service's notification`,
      async () => (await call("GET", `${this.storeUrl}/store/carts/${cartId}`, { headers: this.headers })).cart.completed_at,
      { timeoutMs, abort }
    )
  }

  /** The order of a completed cart: completing it again is what the storefront's return page does, and gives the order. */
  async orderOf(cartId: string): Promise<string> {
    const completed = await call("POST", `${this.storeUrl}/store/carts/${cartId}/complete`, { headers: this.headers, body: {} })
    if (completed.type !== "order") {
      throw new CheckError(`completing cart ${cartId} gave ${completed.type}: ${JSON.stringify(completed.error ?? completed).slice(0, 300)}`)
    }
    return completed.order.id
  }
}

export interface SavedCard {
  id: string
  status: string
  last4: string | null
}

export interface Subscription {
  id: string
  status: string
  first_order_id: string | null
  service_subscription_id: string | null
  periods?: Array<{ period: number; status: string; order_id: string | null }>
}

/** A logged-in customer: the shopper's calls with its bearer token, and the routes that need one. */
export class Customer extends Shopper {
  constructor(
    storeUrl: string,
    seeded: Seeded,
    private readonly token: string
  ) {
    super(storeUrl, seeded)
  }

  protected override get headers() {
    return { ...super.headers, authorization: `Bearer ${this.token}` }
  }

  /** Starts a card binding (docs/saved-cards.md): the card `binding` and the service's binding page. */
  async startBinding(): Promise<{ card: SavedCard; checkoutUrl: string }> {
    const { saved_card: card, checkout_url: checkoutUrl } = await call("POST", `${this.storeUrl}/store/customers/me/tw-saved-cards`, { headers: this.headers, body: { return_path: "/account" } })
    return { card, checkoutUrl }
  }

  async savedCards(): Promise<SavedCard[]> {
    return (await call("GET", `${this.storeUrl}/store/customers/me/tw-saved-cards`, { headers: this.headers })).saved_cards
  }

  /** A cart of this customer in the region, with one item of the variant. */
  async cartWith(variantId: string): Promise<string> {
    const { cart } = await call("POST", `${this.storeUrl}/store/carts`, { headers: this.headers, body: { region_id: this.seeded.regionId } })
    await call("POST", `${this.storeUrl}/store/carts/${cart.id}/line-items`, { headers: this.headers, body: { variant_id: variantId, quantity: 1 } })
    return cart.id
  }

  /** `POST /store/carts/:id/tw-subscription`: the pending subscription and the session whose page pays it. */
  async subscribe(cartId: string, planId: string): Promise<{ subscription: Subscription; payment_session: Session }> {
    return call("POST", `${this.storeUrl}/store/carts/${cartId}/tw-subscription`, { headers: this.headers, body: { plan_id: planId } })
  }

  async subscription(id: string): Promise<Subscription> {
    return (await call("GET", `${this.storeUrl}/store/customers/me/tw-subscriptions/${id}`, { headers: this.headers })).subscription
  }

  async cancelSubscription(id: string, reason: string): Promise<Subscription> {
    return (await call("POST", `${this.storeUrl}/store/customers/me/tw-subscriptions/${id}/cancel`, { headers: this.headers, body: { reason } })).subscription
  }
}

export interface AdminOrder {
  id: string
  status: string
  payment_status: string
  payment_collections: Array<{ payments: Array<{ id: string; provider_id: string; amount: number; captured_at: string | null }> }>
}

export class Merchant {
  private token?: string

  constructor(
    private readonly storeUrl: string,
    private readonly credentials: { email: string; password: string }
  ) {}

  private async authorization() {
    this.token ??= (await call("POST", `${this.storeUrl}/auth/user/emailpass`, { body: this.credentials })).token
    return { authorization: `Bearer ${this.token}` }
  }

  async order(id: string): Promise<AdminOrder> {
    const fields = ["id", "status", "payment_status", ...["id", "provider_id", "amount", "captured_at"].map((field) => `payment_collections.payments.${field}`)].join(",")
    return (await call("GET", `${this.storeUrl}/admin/orders/${id}?fields=${fields}`, { headers: await this.authorization() })).order
  }

  /** Waits until the order's payment is captured by `providerId`, and returns the order. */
  capturedOrder(id: string, providerId: string, abort: () => string | undefined, timeoutMs: number): Promise<AdminOrder> {
    return waitFor(
      `order ${id} to have a captured ${providerId} payment`,
      async () => {
        const order = await this.order(id)
        const payments = order.payment_collections.flatMap((c) => c.payments)
        return order.payment_status === "captured" && payments.length === 1 && payments[0].provider_id === providerId && payments[0].captured_at ? order : undefined
      },
      { timeoutMs, abort }
    )
  }

  /** A subscription plan on the variant, as the variant page's *Subscription plans* section adds it (docs/subscriptions.md). */
  async createPlan(variantId: string, plan: Record<string, unknown>): Promise<string> {
    const { plan: created } = await call("POST", `${this.storeUrl}/admin/product-variants/${variantId}/tw-subscription-plans`, { headers: await this.authorization(), body: plan })
    return created.id
  }

  /**
   * Refunds the order's one payment in full from its order page, as the admin's Refund button does
   * (core's `POST /admin/payments/:id/refund`), and checks what the store recorded: the payment's
   * refund and the order's payment status.
   */
  async refundOrder(orderId: string, amount: number) {
    const [payment] = (await this.order(orderId)).payment_collections.flatMap((c) => c.payments)
    const headers = await this.authorization()
    await call("POST", `${this.storeUrl}/admin/payments/${payment.id}/refund`, { headers, body: { amount } })
    const { payment: refunded } = await call("GET", `${this.storeUrl}/admin/payments/${payment.id}`, { headers })
    const refunds = (refunded.refunds ?? []) as Array<{ amount: number }>
    const order = await this.order(orderId)
    if (refunds.length !== 1 || Number(refunds[0].amount) !== amount || order.payment_status !== "refunded") {
      throw new CheckError(`after refunding NT$${amount} of order ${orderId}, the store records refunds ${JSON.stringify(refunds)} and payment status ${order.payment_status}`)
    }
  }
}

/** What the payment service says it refunded, read with its query endpoints as the spec gives them (hosted 4.7, embedded 4). */
export class Service {
  constructor(
    private readonly hosted: { baseUrl: string; token: string },
    private readonly embedded: { baseUrl: string; secretKey: string }
  ) {}

  /** A hosted transaction must be `refunded` with `refundAmount` equal to `amount`. */
  async checkHostedRefund(transactionId: string, amount: number) {
    const { data } = await call("GET", `${this.hosted.baseUrl}/transactions/${transactionId}`, { headers: { authorization: `Bearer ${this.hosted.token}` } })
    if (data.status !== "refunded" || data.refundAmount !== amount) {
      throw new CheckError(`the service holds hosted transaction ${transactionId} as ${data.status} with refundAmount ${data.refundAmount}, not refunded with ${amount}`)
    }
  }

  /** The service's schedule (its S number) must be `cancelled`: nothing more is charged. */
  async checkScheduleCancelled(subscriptionHid: string) {
    const { data } = await call("GET", `${this.hosted.baseUrl}/subscriptions/${subscriptionHid}`, { headers: { authorization: `Bearer ${this.hosted.token}` } })
    if (data.status !== "cancelled") {
      throw new CheckError(`the service holds subscription ${subscriptionHid} as ${data.status}, not cancelled`)
    }
  }

  /** An embedded intent's refunds must be succeeded ones adding up to `amount`. */
  async checkEmbeddedRefund(paymentIntentId: string, amount: number) {
    const { data } = await call("GET", `${this.embedded.baseUrl}/v1/refunds?paymentIntentId=${encodeURIComponent(paymentIntentId)}`, {
      headers: { authorization: `Bearer ${this.embedded.secretKey}` },
    })
    const refunds = data.items as Array<{ amount: number; status: string }>
    const succeeded = refunds.filter((r) => r.status === "succeeded").reduce((sum, r) => sum + r.amount, 0)
    if (succeeded !== amount || refunds.some((r) => r.status !== "succeeded")) {
      throw new CheckError(`the service holds these refunds of intent ${paymentIntentId}: ${JSON.stringify(refunds)}, not NT$${amount} succeeded`)
    }
  }
}
