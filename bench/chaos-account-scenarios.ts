/**
 * The chaos shoppers with an account: monthly subscriptions (paid, then
 * cancelled by the customer, the merchant or the service's console, or
 * cancelled before the page is paid and paid anyway), saved-card checkouts,
 * and two attackers: a customer who puts their saved card on a guest's cart,
 * and a forged unsigned `charged` notification for a real transaction before
 * it is paid. Renewals happen after every shopper, when chaos-renewals.ts
 * moves the sandbox clock a month.
 */
import { poll, type Shopper, type ShopperContext, whileDown } from "./chaos-context"
import { loggedInCustomer } from "./customers"
import { cardFields, completeCart, createCart, openPage, type PaymentSession, startSession, submitPage } from "./shopper"
import { HarnessError, HOSTED_HOOK, HOSTED_PROVIDER } from "./store"

const CARD = "4242424242424242"
/** Binding answers as soon as the token notification is handled; the account holder's copy follows. */
const BOUND_WITHIN_MS = 60_000

type Headers = Record<string, string>

export interface Subscribed {
  headers: Headers
  subscriptionId: string
  session: PaymentSession
}

/** A logged-in customer's cart of the seed's monthly tea box, turned into a subscription checkout (the recurring page not paid yet). */
export async function subscribe(ctx: ShopperContext, email: string): Promise<{ cartId: string; subscribed: Subscribed }> {
  const { store, catalog } = ctx
  const headers = await whileDown(ctx, () => loggedInCustomer(store, email))
  const cartId = await whileDown(ctx, () => createCart(store, email, headers, catalog.planVariantId))
  const { data } = await whileDown(ctx, () =>
    store.api<{ subscription: { id: string }; payment_session: { id: string; payment_collection_id?: string; data: Record<string, unknown> } }>(
      "POST",
      `/store/carts/${cartId}/tw-subscription`,
      { plan_id: catalog.planId },
      { headers }
    )
  )
  if (!data.payment_session.data.checkoutUrl) {
    throw new HarnessError(`cart ${cartId}: the subscription session holds no checkoutUrl`)
  }
  const session: PaymentSession = { cartId, collectionId: data.payment_session.payment_collection_id ?? "", sessionId: data.payment_session.id, data: data.payment_session.data }
  return { cartId, subscribed: { headers, subscriptionId: data.subscription.id, session } }
}

export async function payPage(session: PaymentSession, fields: Record<string, string> = cardFields(CARD)) {
  const url = String(session.data.checkoutUrl ?? "")
  await openPage(url)
  return submitPage(url, fields)
}

/** The store's subscription once it has its first order (or undefined after `timeoutMs`). */
export const withFirstOrder = (ctx: ShopperContext, subscriptionId: string, timeoutMs = 240_000) =>
  poll(async () => {
    const [row] = await ctx.store.sql<{ first_order_id: string | null }>(`select first_order_id from tw_subscription where id = $1`, [subscriptionId])
    return row?.first_order_id ?? undefined
  }, timeoutMs)

/** The service's subscription opened by the checkout session (its periods carry the session as `orderId`). */
async function serviceSubscriptionOf(ctx: ShopperContext, sessionId: string): Promise<string | undefined> {
  const { transactions } = await ctx.store.control<{ transactions: Array<{ subscriptionId?: string }> }>("GET", `/transactions?orderId=${sessionId}`)
  return transactions.find((t) => t.subscriptionId)?.subscriptionId
}

type Canceller = "customer" | "merchant" | "console"

/** Waits for the first order, then the subscription is cancelled from one of the three sides. */
export async function cancelSubscription(ctx: ShopperContext, subscribed: Subscribed, by: Canceller): Promise<string | undefined> {
  if (!(await withFirstOrder(ctx, subscribed.subscriptionId))) {
    return `subscription ${subscribed.subscriptionId} got no first order to cancel after`
  }
  const { store } = ctx
  if (by === "console") {
    const hid = await poll(() => serviceSubscriptionOf(ctx, subscribed.session.sessionId), 30_000)
    if (!hid) {
      return `no service subscription for session ${subscribed.session.sessionId}`
    }
    await store.control("POST", `/subscriptions/${hid}/cancel`, { reason: "Phoned the service" })
    return undefined
  }
  const [path, headers] =
    by === "customer"
      ? [`/store/customers/me/tw-subscriptions/${subscribed.subscriptionId}/cancel`, subscribed.headers]
      : [`/admin/tw-subscriptions/${subscribed.subscriptionId}/cancel`, await whileDown(ctx, () => ctx.admin())]
  const cancel = () => whileDown(ctx, () => store.api<{ message?: string }>(`POST`, path, { reason: `Cancelled by the ${by}` }, { headers, allowError: true }))
  let { status, data } = await cancel()
  // Before the service's subscription number reaches the store the cancel is refused with "try again": the shopper does.
  for (let tries = 0; status === 400 && /try again/i.test(String(data.message)) && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    ;({ status, data } = await cancel())
  }
  if (status >= 300) {
    // A cancel whose answer the crash swallowed is refused the second time ("already cancelled").
    const [row] = await store.sql<{ status: string }>(`select status from tw_subscription where id = $1`, [subscribed.subscriptionId])
    return row?.status === "cancelled" ? undefined : `the ${by}'s cancel answered ${status}: ${JSON.stringify(data).slice(0, 200)}`
  }
  return undefined
}

/** The customer cancels right away, before paying; the page stays payable at the service, and they pay it anyway. */
export async function cancelThenPay(ctx: ShopperContext, subscribed: Subscribed): Promise<void> {
  const { status, data } = await whileDown(ctx, () =>
    ctx.store.api("POST", `/store/customers/me/tw-subscriptions/${subscribed.subscriptionId}/cancel`, {}, { headers: subscribed.headers, allowError: true })
  )
  if (status >= 300) {
    throw new HarnessError(`cancelling a pending subscription answered ${status}: ${JSON.stringify(data).slice(0, 200)}`)
  }
  await payPage(subscribed.session)
}

/** A customer with a card bound on the sandbox's binding page, once the store shows it active. */
export async function customerWithCard(ctx: ShopperContext, email: string): Promise<{ headers: Headers; savedCardId: string }> {
  const { store } = ctx
  const headers = await whileDown(ctx, () => loggedInCustomer(store, email))
  const { data } = await whileDown(ctx, () =>
    store.api<{ saved_card: { id: string }; checkout_url: string }>("POST", "/store/customers/me/tw-saved-cards", {}, { headers })
  )
  await openPage(data.checkout_url)
  await submitPage(data.checkout_url, cardFields(CARD))
  const active = await poll(async () => {
    const { data: list } = await store.api<{ saved_cards: Array<{ id: string; status: string }> }>("GET", "/store/customers/me/tw-saved-cards", undefined, { headers })
    return list.saved_cards.some((c) => c.id === data.saved_card.id && c.status === "active") ? true : undefined
  }, BOUND_WITHIN_MS)
  if (!active) {
    throw new HarnessError(`card ${data.saved_card.id} not active ${BOUND_WITHIN_MS / 1000} s after its binding page was paid`)
  }
  return { headers, savedCardId: data.saved_card.id }
}

/** A saved-card session on the cart, retried while the account holder's copy of the card is not written yet. */
async function savedCardSession(ctx: ShopperContext, cartId: string, savedCardId: string, headers: Headers, collectionId?: string) {
  let last: unknown
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      return await whileDown(ctx, () => startSession(ctx.store, cartId, HOSTED_PROVIDER, collectionId, { data: { savedCardId }, headers }))
    } catch (error) {
      last = error
      await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
  }
  throw last
}

/** Binds a card, fills a cart and pays it with the card: completing the cart charges it. */
export async function payWithSavedCard(ctx: ShopperContext, shopper: Shopper, email: string): Promise<string> {
  const { headers, savedCardId } = await customerWithCard(ctx, email)
  const cartId = await whileDown(ctx, () => createCart(ctx.store, email, headers))
  shopper.cartId = cartId
  await savedCardSession(ctx, cartId, savedCardId, headers)
  const { status, data } = await whileDown(ctx, () => completeCart(ctx.store, cartId, headers))
  if (data.type !== "order") {
    shopper.problems.push(`completing the saved-card cart answered ${status}: ${JSON.stringify(data).slice(0, 200)}`)
  }
  return cartId
}

/**
 * A customer with a saved card opens a saved-card session on a guest's cart (the collection id is
 * enough to try); the store must refuse. If it does not, the guest's completion would charge the card.
 */
export async function savedCardOnAnothersCart(ctx: ShopperContext, shopper: Shopper, guestCartId: string, collectionId: string, email: string): Promise<void> {
  const { headers, savedCardId } = await customerWithCard(ctx, email)
  const { status, data } = await whileDown(ctx, () =>
    ctx.store.api<Record<string, unknown>>(
      "POST",
      `/store/payment-collections/${collectionId}/payment-sessions`,
      { provider_id: HOSTED_PROVIDER, data: { savedCardId } },
      { headers, allowError: true }
    )
  )
  if (status < 300) {
    const shown = JSON.stringify(data)
    shopper.findings.push({
      invariant: "I4",
      line: `cart ${guestCartId}: a saved-card session of another customer was accepted (${status})${shown.includes("@example.test") ? ", and the answer shows the guest's email" : ""}`,
    })
  }
  // The guest comes back and completes: with an accepted session this is where the card would be charged.
  await whileDown(ctx, () => completeCart(ctx.store, guestCartId)).catch(() => undefined)
}

/**
 * An unsigned `charged` notification for the session's real transaction, before it is paid, posted straight
 * to the store as anyone could (its id is in the session data the storefront gets). Returns the store's answer.
 */
export async function forgeCharged(ctx: ShopperContext, session: PaymentSession): Promise<number> {
  const transactionId = String(session.data.transactionId ?? "")
  if (!transactionId) {
    throw new HarnessError(`cart ${session.cartId}: the hosted session holds no transactionId`)
  }
  const now = new Date().toISOString()
  const body = {
    purpose: "charge",
    id: transactionId,
    transactionId,
    merchantId: ctx.store.sandbox.defaultMerchant.merchantId,
    orderId: session.sessionId,
    action: "onetime",
    status: "charged",
    success: true,
    paymentMethod: "card",
    amount: Number(session.data.amount ?? 0),
    currency: "twd",
    customId: session.sessionId,
    createdAt: now,
    paidAt: now,
  }
  const res = await fetch(`${ctx.store.url}${HOSTED_HOOK}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  await res.text()
  return res.status
}
