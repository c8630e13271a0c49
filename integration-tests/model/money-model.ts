import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import fc from "fast-check"
import type { SandboxHandle } from "medusa-payment-tw-sandbox"
import { signPayload } from "../../src/lib/embedded"
import { HostedCheckoutClient } from "../../src/lib/hosted"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import reconcileTwSubscriptions from "../../src/jobs/reconcile-tw-subscriptions"
import { card, confirmCard, control, EMBEDDED_HOOK_PATH, EMBEDDED_PROVIDER_ID, HOOK_PATH, orderOfCart, payPage, PROVIDER_ID, settle, SUCCESS_CARD, type Store } from "../helpers/hosted-store"

/**
 * The model-based money test (issue 21): fast-check generates short sequences of shopper, service,
 * merchant and attacker actions; each runs against the real Medusa app (HTTP and its container) and the
 * sandbox (its control API). After a sequence the reconciliation runs, and the invariants I1 to I7 are
 * checked from the sandbox's truth against the store's records.
 *
 * Process restarts are not modelled: one jest worker holds one in-process app, which cannot be killed and
 * started again inside a test. Crashes belong to the chaos harness (`npm run chaos`, bench/chaos.ts).
 */

// The test runner's axios instance; typed loosely on purpose (as the helpers do).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Api = any
type Headers = Record<string, string>

/** What every sequence shares: the app, the sandbox, the demo store's ids, an admin and a customer. */
export interface World {
  api: Api
  container: MedusaContainer
  sandbox: SandboxHandle
  store: Store
  admin: Headers
  /** The logged-in customer who subscribes and binds cards. */
  customer: Headers
  customerId: string
  /** A second logged-in customer: binds cards of their own and puts them on carts that are not theirs. */
  other: { headers: Headers; id: string }
  regionId: string
  shippingAddress: Record<string, string>
  /** One-time carts: oolong tea. Subscriptions: the demo's monthly tea box. Cart changes add pineapple cakes. */
  oolong: { variantId: string; inventoryItemId: string }
  box: { variantId: string; inventoryItemId: string; planId: string }
  cakesVariantId: string
  /**
   * Self-test of the checks (MONEY_MODEL_SABOTAGE): after the reconciliation, the harness itself breaks
   * one invariant in the store's database, and the check must then fail. Never set in a real run.
   */
  sabotage?: "I1" | "I2" | "I3" | "I4" | "I5" | "I6" | "I7"
}

export interface SessionRef {
  id: string
  /** The hosted transaction, or the embedded payment intent. */
  txId: string
  txHid: string
  checkoutUrl: string
  /** An embedded session's: what the card form confirms the intent with. */
  clientSecret?: string
}

export type CardOwner = "customer" | "other"

/** A card bound in this sequence and active in its owner's account. */
export interface CardRef {
  n: number
  id: string
  owner: CardOwner
}

export interface CartRef {
  n: number
  kind: "one-time" | "subscription"
  cartId: string
  headers: Headers
  sessions: SessionRef[]
  subscriptionId?: string
  abandoned: boolean
  /** Paid with a saved card (no page): its sessions carry the card, and the service's charges their session id. */
  savedCard?: CardRef
  /** Transactions of its pages for which a convenience-store code was issued, to pay or let expire at the counter. */
  codes?: string[]
  /** Paid with the card form of the embedded API (payment intents), not on a hosted page. */
  embedded?: boolean
}

/** The model: what exists in this sequence (preconditions and targets come from it). */
export interface Model {
  carts: CartRef[]
  cards: CardRef[]
}

/** What the sequence did, for the checks and the failure report. */
export interface Real {
  world: World
  started: number
  trace: string[]
  /** Medusa payments the merchant refunded through the admin API. */
  merchantRefunds: Set<string>
  /** Forged deliveries: the transaction or payment intent, and when. */
  forged: Array<{ txId: string; at: string; embedded?: boolean }>
  violations: string[]
}

interface HttpAnswer {
  status: number
  data: Record<string, unknown> & { message?: string }
}

/** An HTTP call that never throws: the status and body, or the transport error as status 0. */
async function call(promise: Promise<{ status: number; data: unknown }>): Promise<HttpAnswer> {
  try {
    const res = await promise
    return { status: res.status, data: res.data as HttpAnswer["data"] }
  } catch (error) {
    const e = error as { response?: { status: number; data: unknown }; message?: string }
    if (e.response) {
      return { status: e.response.status, data: (e.response.data ?? {}) as HttpAnswer["data"] }
    }
    return { status: 0, data: { message: e.message ?? String(error) } }
  }
}

const brief = (answer: HttpAnswer) => `${answer.status}${answer.status >= 300 || answer.status === 0 ? ` ${String(answer.data?.message ?? answer.data?.type ?? "").slice(0, 120)}` : ""}`

/** Paid at the service: a hosted transaction's states, and an embedded payment intent's. */
const PAID = new Set(["charged", "claimed", "succeeded"])
/** Payment methods the service refunds only by remittance to the shopper's bank account. */
const REMITTED = new Set(["cvs", "atm"])
const LIVE_SERVICE_SUBSCRIPTION = new Set(["active", "trialing", "retrying"])
const MONTH_SECONDS = 32 * 24 * 3600

/** The cart a generated index names, among those matching `which` (undefined when none). */
function pick(model: Model, index: number, which: (c: CartRef) => boolean): CartRef | undefined {
  const list = model.carts.filter(which)
  return list.length ? list[index % list.length] : undefined
}

const hasSession = (c: CartRef) => c.sessions.length > 0
const shopperCanAct = (c: CartRef) => hasSession(c) && !c.abandoned
/** A cart whose sessions have a page at the service (not a saved card's). */
/** A cart the shopper pays by card: on its page, or (embedded) in the card form. */
const hasPage = (c: CartRef) => shopperCanAct(c) && !c.savedCard
/** A cart whose latest session is an embedded payment intent the shopper can confirm. */
const hasIntent = (c: CartRef) => shopperCanAct(c) && !!c.embedded

const shopperOf = (world: World, owner: CardOwner) => (owner === "customer" ? { headers: world.customer, id: world.customerId } : world.other)

/** Sets what is available of both stocked products (stocked = reserved + available). */
export async function setAvailable(world: World, available: number) {
  const inventory = world.container.resolve(Modules.INVENTORY)
  for (const item of [world.oolong.inventoryItemId, world.box.inventoryItemId]) {
    const levels = await inventory.listInventoryLevels({ inventory_item_id: item })
    await inventory.updateInventoryLevels(
      levels.map((level) => ({ inventory_item_id: item, location_id: level.location_id, stocked_quantity: Number(level.reserved_quantity) + available }))
    )
  }
}

async function stockedCart(world: World, headers: Headers, variantId: string, quantity: number, customer: boolean) {
  const created = await call(
    world.api.post(
      "/store/carts",
      {
        region_id: world.regionId,
        ...(customer ? {} : { email: "shopper@example.test" }),
        items: [{ variant_id: variantId, quantity }],
        shipping_address: world.shippingAddress,
      },
      { headers }
    )
  )
  if (created.status !== 200) {
    // Out of stock: Medusa refuses the cart itself.
    return `cart refused: ${brief(created)}`
  }
  const cartId = (created.data.cart as { id: string }).id
  const options = await call(world.api.get(`/store/shipping-options?cart_id=${cartId}`, { headers }))
  const optionId = (options.data.shipping_options as Array<{ id: string }>)[0].id
  const shipping = await call(world.api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: optionId }, { headers }))
  if (shipping.status !== 200) {
    throw new Error(`adding shipping: ${brief(shipping)}`)
  }
  return { cartId }
}

/**
 * A session for a one-time cart (a new one, or again for the same cart): a hosted page, or an embedded
 * payment intent; with a saved card, its session, asked for by `headers` (the card's owner, who may not
 * be the cart's).
 */
async function paymentSession(world: World, cart: { cartId: string; headers: Headers; embedded?: boolean }, savedCard?: { id: string; headers: Headers }): Promise<SessionRef | string> {
  const headers = savedCard?.headers ?? cart.headers
  const collection = await call(world.api.post("/store/payment-collections", { cart_id: cart.cartId }, { headers }))
  if (collection.status !== 200) {
    return `payment collection ${brief(collection)}`
  }
  const collectionId = (collection.data.payment_collection as { id: string }).id
  // A page offers the card always, and here a convenience-store code and a bank transfer too.
  const data = savedCard ? { savedCardId: savedCard.id } : cart.embedded ? {} : { methods: ["cvs", "atm"] }
  const provider = cart.embedded ? EMBEDDED_PROVIDER_ID : PROVIDER_ID
  const created = await call(world.api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: provider, data }, { headers }))
  if (created.status !== 200) {
    return `session ${brief(created)}`
  }
  const sessions = (created.data.payment_collection as { payment_sessions: Array<{ id: string; provider_id: string; data: Record<string, string> }> }).payment_sessions
  const session = sessions.find((s) => s.provider_id === provider)!
  return cart.embedded
    ? { id: session.id, txId: session.data.paymentIntentId, txHid: session.data.paymentIntentId, checkoutUrl: "", clientSecret: session.data.clientSecret }
    : { id: session.id, txId: session.data.transactionId ?? "", txHid: session.data.transactionHid ?? "", checkoutUrl: session.data.checkoutUrl ?? "" }
}

type Command = fc.AsyncCommand<Model, Real>

abstract class Step implements Command {
  abstract check(m: Readonly<Model>): boolean
  abstract act(m: Model, r: Real): Promise<string>
  abstract toString(): string
  async run(m: Model, r: Real) {
    const started = Date.now()
    const what = await this.act(m, r)
    r.trace.push(`${this.toString()} -> ${what} [${((Date.now() - started) / 1000).toFixed(1)} s]`)
  }
}

/** Shopper: a new guest cart of oolong tea (stock can run out) and a hosted page, or an embedded payment intent, for it. */
class StartPayment extends Step {
  constructor(
    readonly quantity: number,
    readonly embedded = false
  ) {
    super()
  }
  check = () => true
  async act(m: Model, r: Real) {
    const headers = r.world.store.headers
    const made = await stockedCart(r.world, headers, r.world.oolong.variantId, this.quantity, false)
    if (typeof made === "string") {
      return made
    }
    const { cartId } = made
    const cart: CartRef = { n: m.carts.length, kind: "one-time", cartId, headers, sessions: [], abandoned: false, embedded: this.embedded || undefined }
    m.carts.push(cart)
    const session = await paymentSession(r.world, cart)
    if (typeof session === "string") {
      return `cart#${cart.n} ${cartId}, no session: ${session}`
    }
    cart.sessions.push(session)
    return `cart#${cart.n} ${cartId}, session ${session.id} tx ${session.txId}`
  }
  toString = () => `startPayment(qty ${this.quantity}${this.embedded ? ", embedded" : ""})`
}

/** Shopper: a new session for a cart that has one (a second tab, or after changing the cart). */
class RestartPayment extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, (c) => c.kind === "one-time" && !c.abandoned)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, (c) => c.kind === "one-time" && !c.abandoned)!
    const card = cart.savedCard && { id: cart.savedCard.id, headers: shopperOf(r.world, cart.savedCard.owner).headers }
    const session = await paymentSession(r.world, cart, card)
    if (typeof session === "string") {
      return `cart#${cart.n}: ${session}`
    }
    cart.sessions.push(session)
    return `cart#${cart.n} session ${session.id} tx ${session.txId}`
  }
  toString = () => `restartPayment(${this.index})`
}

/**
 * A new hosted session on a cart's payment collection at any time (a cart, an order awaiting its code, a
 * paid order), asked for by its shopper (a second tab, a storefront re-rendering its payment step) or by a
 * stranger who holds the collection's id. Answered or refused, it must not cost an order its payment.
 */
class NewSession extends Step {
  constructor(
    readonly index: number,
    readonly by: "shopper" | "stranger"
  ) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, (c) => !c.savedCard && !c.embedded)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, (c) => !c.savedCard && !c.embedded)!
    const { data: links } = await r.world.container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "cart_payment_collection", fields: ["payment_collection_id"], filters: { cart_id: cart.cartId } })
    const collectionId: string | undefined = links[0]?.payment_collection_id
    if (!collectionId) {
      return `cart#${cart.n} has no payment collection`
    }
    const headers = this.by === "shopper" ? cart.headers : r.world.store.headers
    const created = await call(r.world.api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: PROVIDER_ID, data: { methods: ["cvs", "atm"] } }, { headers }))
    if (created.status !== 200) {
      return `cart#${cart.n}: ${brief(created)} ${String(created.data.code ?? "")}`
    }
    const sessions = (created.data.payment_collection as { payment_sessions: Array<{ id: string; provider_id: string; data: Record<string, string> }> }).payment_sessions
    const session = sessions.find((s) => s.provider_id === PROVIDER_ID)!
    cart.sessions.push({ id: session.id, txId: session.data.transactionId ?? "", txHid: session.data.transactionHid ?? "", checkoutUrl: session.data.checkoutUrl ?? "" })
    return `cart#${cart.n} session ${session.id} tx ${session.data.transactionId}`
  }
  toString = () => `newSession(${this.index}, ${this.by})`
}

/** Shopper (logged in): a cart of the monthly tea box and its subscription checkout, on the page or with a saved card of theirs. */
class Subscribe extends Step {
  constructor(readonly withSavedCard = false) {
    super()
  }
  check = (m: Readonly<Model>) => !this.withSavedCard || m.cards.some((c) => c.owner === "customer")
  async act(m: Model, r: Real) {
    const headers = r.world.customer
    const made = await stockedCart(r.world, headers, r.world.box.variantId, 1, true)
    if (typeof made === "string") {
      return made
    }
    const { cartId } = made
    const savedCard = this.withSavedCard ? m.cards.filter((c) => c.owner === "customer").at(-1) : undefined
    const cart: CartRef = { n: m.carts.length, kind: "subscription", cartId, headers, sessions: [], abandoned: false, savedCard }
    m.carts.push(cart)
    const body = { plan_id: r.world.box.planId, ...(savedCard ? { saved_card_id: savedCard.id } : {}) }
    const started = await call(r.world.api.post(`/store/carts/${cartId}/tw-subscription`, body, { headers }))
    if (started.status !== 200) {
      return `cart#${cart.n} ${cartId}, subscription refused: ${brief(started)}`
    }
    const session = started.data.payment_session as { id: string; data: Record<string, string> }
    cart.subscriptionId = (started.data.subscription as { id: string }).id
    cart.sessions.push({ id: session.id, txId: session.data.transactionId ?? "", txHid: session.data.transactionHid ?? "", checkoutUrl: session.data.checkoutUrl ?? "" })
    return `cart#${cart.n} ${cartId}, subscription ${cart.subscriptionId}, session ${session.id}${savedCard ? ` with card ${savedCard.id}` : ` tx ${session.data.transactionId}`}`
  }
  toString = () => (this.withSavedCard ? "subscribeWithSavedCard()" : "subscribe()")
}

/** Shopper (a logged-in customer): binds a card on the service's binding page (no charge). */
class BindCard extends Step {
  constructor(readonly owner: CardOwner) {
    super()
  }
  check = () => true
  async act(m: Model, r: Real) {
    const { headers } = shopperOf(r.world, this.owner)
    const started = await call(r.world.api.post("/store/customers/me/tw-saved-cards", {}, { headers }))
    if (started.status !== 200) {
      return `binding refused: ${brief(started)}`
    }
    const id = (started.data.saved_card as { id: string }).id
    try {
      await payPage(String(started.data.checkout_url), card(SUCCESS_CARD))
    } catch (error) {
      return `card ${id}: binding page not payable (${(error as Error).message})`
    }
    await settle()
    const listed = await call(r.world.api.get("/store/customers/me/tw-saved-cards", { headers }))
    const status = (listed.data.saved_cards as Array<{ id: string; status: string }> | undefined)?.find((c) => c.id === id)?.status
    if (status === "active") {
      m.cards.push({ n: m.cards.length, id, owner: this.owner })
    }
    return `card ${id} of the ${this.owner}: ${status ?? "not listed"}`
  }
  toString = () => `bindCard(${this.owner})`
}

/**
 * Shopper, or attacker: a new cart of oolong tea paid with a saved card, completed once or twice at once.
 * The cart is the card owner's own, a guest's, or the other customer's (whose id the attacker learnt):
 * on the last two, the session must be refused and nothing charged (I4).
 */
class PayWithSavedCard extends Step {
  constructor(
    readonly cardIndex: number,
    readonly cartOf: "owner" | "guest" | "another customer",
    readonly times: 1 | 2
  ) {
    super()
  }
  check = (m: Readonly<Model>) => m.cards.length > 0
  async act(m: Model, r: Real) {
    const savedCard = m.cards[this.cardIndex % m.cards.length]
    const owner = shopperOf(r.world, savedCard.owner)
    const cartShopper = this.cartOf === "owner" ? owner : this.cartOf === "guest" ? undefined : shopperOf(r.world, savedCard.owner === "customer" ? "other" : "customer")
    const headers = cartShopper?.headers ?? r.world.store.headers
    const made = await stockedCart(r.world, headers, r.world.oolong.variantId, 1, !!cartShopper)
    if (typeof made === "string") {
      return made
    }
    const cart: CartRef = { n: m.carts.length, kind: "one-time", cartId: made.cartId, headers, sessions: [], abandoned: false, savedCard }
    m.carts.push(cart)
    const session = await paymentSession(r.world, cart, { id: savedCard.id, headers: owner.headers })
    if (typeof session === "string") {
      return `cart#${cart.n} (${this.cartOf}'s) with card ${savedCard.id}: ${session}`
    }
    cart.sessions.push(session)
    const answers = await Promise.all(Array.from({ length: this.times }, () => call(r.world.api.post(`/store/carts/${cart.cartId}/complete`, {}, { headers }))))
    return `cart#${cart.n} (${this.cartOf}'s) ${cart.cartId}, card ${savedCard.id}, session ${session.id}: ${answers.map((a) => (a.status === 200 ? String(a.data.type) : brief(a))).join(" | ")}`
  }
  toString = () => `payWithSavedCard(${this.cardIndex}, ${this.cartOf}'s cart${this.times === 2 ? ", completed twice at once" : ""})`
}

/** Shopper: pays the cart's latest page with a good card, or takes a convenience-store code on it. */
class PayPage extends Step {
  constructor(
    readonly index: number,
    readonly method: "card" | "cvs" | "atm" = "card"
  ) {
    super()
  }
  // A subscription's recurring page takes a card only.
  private readonly payable = (c: CartRef) => hasPage(c) && (this.method === "card" || (c.kind === "one-time" && !c.embedded))
  check = (m: Readonly<Model>) => !!pick(m, this.index, this.payable)
  act = (m: Model, r: Real) => payLatestPage(r.world, pick(m, this.index, this.payable)!, this.method)
  toString = () => (this.method === "card" ? `payPage(${this.index})` : `take${this.method === "cvs" ? "Cvs" : "Atm"}Code(${this.index})`)
}

async function payLatestPage(world: World, cart: CartRef, method: "card" | "cvs" | "atm" = "card"): Promise<string> {
  if (cart.embedded) {
    return confirmIntent(world, cart, "paid")
  }
  const session = cart.sessions[cart.sessions.length - 1]
  try {
    const to = await payPage(session.checkoutUrl, method === "card" ? card(SUCCESS_CARD) : method === "cvs" ? CVS : ATM)
    const outcome = to === undefined ? "the page again" : to.includes("payment_error") ? "failure page" : "success page"
    if (method !== "card" && outcome === "success page") {
      cart.codes = [...(cart.codes ?? []), session.txId]
    }
    return `cart#${cart.n} ${method === "card" ? "paid" : "took a code for"} ${session.txId} -> ${outcome}`
  } catch (error) {
    return `cart#${cart.n} page not payable (${(error as Error).message})`
  }
}

const CVS = { method: "cvs", cvsName: "7-ELEVEN" }
const ATM = { method: "atm" }

/** The sandbox's test cards for the embedded card form (its README): paid, declined, and `processing` that settles later either way. */
const INTENT_CARDS = { paid: "4242424242424242", declined: "4000000000000002", "processing, then paid": "4000000000007700", "processing, then declined": "4000000000007718" }
type IntentCard = keyof typeof INTENT_CARDS

/** The card form: confirms the cart's latest payment intent with a test card. */
async function confirmIntent(world: World, cart: CartRef, kind: IntentCard): Promise<string> {
  const session = cart.sessions[cart.sessions.length - 1]
  const { status, body } = await confirmCard(world.sandbox, session.clientSecret!, INTENT_CARDS[kind])
  return `cart#${cart.n} ${session.txId} with a card ${kind}: ${status} ${body?.data?.status ?? body?.error?.code ?? ""}`
}

/** Shopper: confirms the latest payment intent of an embedded cart with one of the test cards. */
class PayIntent extends Step {
  constructor(
    readonly index: number,
    readonly card: IntentCard
  ) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, hasIntent)
  act = (m: Model, r: Real) => confirmIntent(r.world, pick(m, this.index, hasIntent)!, this.card)
  toString = () => `payIntent(${this.index}, ${this.card})`
}
const hasCode = (c: CartRef) => !!c.codes?.length

/** The shopper pays a convenience-store code at the counter or a bank transfer, or lets it expire (the service's side; whatever the cart's state). */
class AtCounter extends Step {
  constructor(
    readonly index: number,
    readonly outcome: "pay" | "expire"
  ) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, hasCode)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, hasCode)!
    const txId = cart.codes![cart.codes!.length - 1]
    try {
      const { status } = (await control(r.world.sandbox, "POST", `/transactions/${txId}/${this.outcome}`)) as { status?: string }
      return `cart#${cart.n} code of ${txId}: ${this.outcome} -> ${status ?? "done"}`
    } catch (error) {
      return `cart#${cart.n} code of ${txId}: ${this.outcome} refused (${(error as Error).message})`
    }
  }
  toString = () => `${this.outcome === "pay" ? "payCodeAtCounter" : "letCodeExpire"}(${this.index})`
}

/**
 * Two shoppers pay their carts' latest pages at once: two checkouts of one plan paid within a second are
 * what the subscription read must tell apart when their notifications are lost.
 */
class PayTwoPages extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => m.carts.filter(hasPage).length >= 2
  async act(m: Model, r: Real) {
    const payable = m.carts.filter(hasPage)
    const carts = [payable[this.index % payable.length], payable[(this.index + 1) % payable.length]]
    return (await Promise.all(carts.map((cart) => payLatestPage(r.world, cart)))).join(" | ")
  }
  toString = () => `payTwoPagesAtOnce(${this.index}, ${this.index + 1})`
}

/** Shopper: leaves; never acts on this cart again. */
class Abandon extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, shopperCanAct)
  async act(m: Model) {
    const cart = pick(m, this.index, shopperCanAct)!
    cart.abandoned = true
    return `cart#${cart.n} abandoned`
  }
  toString = () => `abandon(${this.index})`
}

/** Shopper: completes the cart, once or twice at once. */
class Complete extends Step {
  constructor(
    readonly index: number,
    readonly times: 1 | 2
  ) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, shopperCanAct)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, shopperCanAct)!
    const answers = await Promise.all(
      Array.from({ length: this.times }, () => call(r.world.api.post(`/store/carts/${cart.cartId}/complete`, {}, { headers: cart.headers })))
    )
    return `cart#${cart.n}: ${answers.map((a) => (a.status === 200 ? String(a.data.type) : brief(a))).join(" | ")}`
  }
  toString = () => (this.times === 1 ? `complete(${this.index})` : `completeTwiceAtOnce(${this.index})`)
}

/** Shopper: adds an item to a cart whose session exists. */
class ChangeCart extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, shopperCanAct)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, shopperCanAct)!
    const answer = await call(r.world.api.post(`/store/carts/${cart.cartId}/line-items`, { variant_id: r.world.cakesVariantId, quantity: 1 }, { headers: cart.headers }))
    return `cart#${cart.n} item added: ${brief(answer)}`
  }
  toString = () => `changeCart(${this.index})`
}

const withSubscription = (c: CartRef) => !!c.subscriptionId

/** The customer, or the merchant, cancels a subscription. */
class CancelSubscription extends Step {
  constructor(
    readonly index: number,
    readonly by: "customer" | "merchant"
  ) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, withSubscription)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, withSubscription)!
    const answer =
      this.by === "customer"
        ? await call(r.world.api.post(`/store/customers/me/tw-subscriptions/${cart.subscriptionId}/cancel`, {}, { headers: r.world.customer }))
        : await call(r.world.api.post(`/admin/tw-subscriptions/${cart.subscriptionId}/cancel`, { reason: "merchant" }, { headers: r.world.admin }))
    return `cart#${cart.n} subscription ${cart.subscriptionId}: ${answer.status === 200 ? (answer.data.subscription as { status: string }).status : brief(answer)}`
  }
  toString = () => `cancelSubscription(${this.index}, by ${this.by})`
}

/** The service: every delivery due now is made and acted on. */
class Deliver extends Step {
  check = () => true
  async act() {
    await settle()
    return "settled"
  }
  toString = () => "deliver()"
}

/** The service: the next charge notification, or the next two, are dropped, duplicated or held back (reordered). */
class Fault extends Step {
  constructor(
    readonly kind: "drop" | "duplicate" | "reorder",
    readonly count: 1 | 2 = 1
  ) {
    super()
  }
  check = () => true
  async act(_m: Model, r: Real) {
    await control(r.world.sandbox, "POST", "/faults", { kind: this.kind, purpose: "charge", count: this.count })
    return "armed"
  }
  toString = () => `fault(${this.kind} next ${this.count === 2 ? "two charge notifications" : "charge notification"})`
}

/** The service: the next saved-card charge answers C026, a 5xx or nothing, having charged the card or not (an unknown outcome). */
class ChargeFault extends Step {
  constructor(
    readonly kind: "c026" | "http500" | "timeout",
    readonly applied: boolean
  ) {
    super()
  }
  check = (m: Readonly<Model>) => m.cards.length > 0
  async act(_m: Model, r: Real) {
    const hold = this.kind === "timeout" ? { holdMs: 1_000, then: "drop" } : {}
    await control(r.world.sandbox, "POST", "/faults", { kind: this.kind, endpoint: "POST /token/transactions", applied: this.applied, count: 1, ...hold })
    return "armed"
  }
  toString = () => `fault(${this.kind} on the next saved-card charge, ${this.applied ? "charged" : "not charged"})`
}

/**
 * A sale outside the store (no session of it: the store ignores it), so that the service keeps more than
 * 200 TWD collected and not yet paid out. Below that it refuses every refund (`F0001`) until the merchant
 * sells again, which no interleaving of the store can change; that refund stays owed and is retried by
 * `reconcile-tw-cancelled-orders` (integration-tests/http/hosted-refunds.spec.ts), outside this model.
 */
async function saleOutsideTheStore(world: World) {
  const { sandbox } = world
  const client = new HostedCheckoutClient({ apiToken: sandbox.defaultMerchant.token, merchantId: sandbox.defaultMerchant.merchantId, baseUrl: sandbox.hostedBaseUrl, checkoutHost: sandbox.checkoutHost })
  try {
    const created = await client.checkouts.create({
      amount: 1000,
      orderId: `model-float-${Date.now()}`,
      successUrl: null,
      failureUrl: "https://shop.test/failed",
      productDetails: [{ productionCode: "FLOAT", description: "Sale outside the store", quantity: 1, unit: "box", unitPrice: 1000 }],
    })
    await payPage(created.page.url, card(SUCCESS_CARD))
  } finally {
    await client.close()
  }
}

/** The service: a month passes (subscriptions charge their next period; open pages expire; collected money is paid out). */
class AdvanceMonth extends Step {
  check = () => true
  async act(_m: Model, r: Real) {
    await control(r.world.sandbox, "POST", "/clock/advance", { seconds: MONTH_SECONDS })
    await saleOutsideTheStore(r.world)
    await settle()
    return "a month later"
  }
  toString = () => "advanceClock(a month)"
}

/** Every order of this sequence's carts and subscriptions, with its payments. */
async function ordersOfRun(world: World, model: Model) {
  const query = world.container.resolve(ContainerRegistrationKeys.QUERY)
  const cartIds = model.carts.map((c) => c.cartId)
  const subscriptionIds = model.carts.map((c) => c.subscriptionId).filter((id): id is string => !!id)
  const orderIds = new Set<string>()
  if (cartIds.length) {
    const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartIds } })
    data.forEach((link: { order_id: string }) => orderIds.add(link.order_id))
  }
  if (subscriptionIds.length) {
    const { data } = await query.graph({ entity: "tw_subscription", fields: ["id", "orders.id"], filters: { id: subscriptionIds } })
    for (const sub of data as Array<{ orders?: Array<{ id: string } | null> }>) {
      sub.orders?.forEach((o) => o && orderIds.add(o.id))
    }
  }
  if (!orderIds.size) {
    return []
  }
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "status", "metadata", "payment_collections.payments.id", "payment_collections.payments.amount", "payment_collections.payments.captured_at", "payment_collections.payments.refunds.amount"],
    filters: { id: [...orderIds] },
  })
  return orders as Array<{
    id: string
    status: string
    metadata: Record<string, unknown> | null
    payment_collections?: Array<{ payments?: Array<{ id: string; amount: number; captured_at: string | null; refunds?: Array<{ amount: number }> }> }>
  }>
}

/** The merchant cancels one of this sequence's orders (core refunds its captured payment). */
class CancelOrder extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => m.carts.some(hasSession)
  async act(m: Model, r: Real) {
    const live = (await ordersOfRun(r.world, m)).filter((o) => o.status !== "canceled")
    if (!live.length) {
      return "no order to cancel"
    }
    const order = live[this.index % live.length]
    const answer = await call(r.world.api.post(`/admin/orders/${order.id}/cancel`, {}, { headers: r.world.admin }))
    return `order ${order.id}: ${brief(answer)}`
  }
  toString = () => `cancelOrder(${this.index})`
}

/** The merchant refunds a captured payment in full from the admin. */
class RefundPayment extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => m.carts.some(hasSession)
  async act(m: Model, r: Real) {
    const payments = (await ordersOfRun(r.world, m))
      .flatMap((o) => o.payment_collections?.flatMap((pc) => pc.payments ?? []) ?? [])
      .filter((p) => p.captured_at && !(p.refunds ?? []).length)
    if (!payments.length) {
      return "no captured payment to refund"
    }
    const payment = payments[this.index % payments.length]
    r.merchantRefunds.add(payment.id)
    const answer = await call(r.world.api.post(`/admin/payments/${payment.id}/refund`, { amount: Number(payment.amount) }, { headers: r.world.admin }))
    return `payment ${payment.id}: ${brief(answer)}`
  }
  toString = () => `refundPayment(${this.index})`
}

/** The merchant sets what is available of both stocked products. */
class SetStock extends Step {
  constructor(readonly available: number) {
    super()
  }
  check = () => true
  async act(_m: Model, r: Real) {
    await setAvailable(r.world, this.available)
    return "set"
  }
  toString = () => `setStock(${this.available} available)`
}

/** What the store shows of one session: its cart's order, the session's status and payment. */
async function storeViewOfSession(world: World, cartId: string, sessionId: string) {
  const order = await orderOfCart(world.container, cartId)
  const payments = world.container.resolve(Modules.PAYMENT)
  const [session] = await payments.listPaymentSessions({ id: sessionId }, { relations: ["payment", "payment.captures"] })
  return JSON.stringify({
    order: order ? `${order.id} ${order.status}` : null,
    session: session ? session.status : "deleted",
    payment: session?.payment ? `${session.payment.id} captured ${(session.payment.captures ?? []).length}` : null,
  })
}

const withPageSession = (c: CartRef) => hasSession(c) && !c.savedCard

/** A webhook secret that is not the store's: what the attacker signs with. */
const FORGER_SECRET = `whsec_${"f".repeat(48)}`

/**
 * The attacker: a `charged` notification for a real transaction id (from the session data), unsigned as
 * the hosted API's are; for an embedded intent, a `payment_intent.succeeded` webhook signed with a secret
 * that is not the store's.
 */
class Forge extends Step {
  constructor(readonly index: number) {
    super()
  }
  check = (m: Readonly<Model>) => !!pick(m, this.index, withPageSession)
  async act(m: Model, r: Real) {
    const cart = pick(m, this.index, withPageSession)!
    const session = cart.sessions[cart.sessions.length - 1]
    const read = async () => control(r.world.sandbox, "GET", cart.embedded ? `/payment-intents/${session.txId}` : `/transactions/${session.txId}`)
    // What is due is delivered first: a real delivery still on its way (a code's `charging`) changes the store
    // by right, and must not be taken for the forgery's doing (money model, seed 20261127, sequence 639).
    await settle()
    const before = await read()
    const storeBefore = await storeViewOfSession(r.world, cart.cartId, session.id)
    const at = new Date().toISOString()
    // Medusa's hook route answers 200 and hands the body on; what the store does with it is what counts.
    const answer = cart.embedded ? await this.forgeWebhook(r, before) : await this.forgeNotification(r, cart, session, before.amount)
    r.forged.push({ txId: session.txId, at, embedded: cart.embedded })
    await settle()
    if (r.world.sabotage === "I6" && !PAID.has(before.status)) {
      await sql(r.world)("payment_session").where({ id: session.id }).update({ status: "error" })
    }
    const after = await read()
    const storeAfter = await storeViewOfSession(r.world, cart.cartId, session.id)
    // While the service's payment stays unpaid, the forgery may change nothing in the store.
    if (!PAID.has(before.status) && before.status === after.status && storeBefore !== storeAfter) {
      r.violations.push(`I6: forged delivery for unpaid ${session.txId} (${after.status}) changed the store: ${storeBefore} -> ${storeAfter}`)
    }
    return `cart#${cart.n} ${session.txId} (${before.status}): hook ${answer.status}`
  }
  private forgeNotification(r: Real, cart: CartRef, session: SessionRef, amount: number) {
    return call(
      r.world.api.post(HOOK_PATH, {
        purpose: "charge",
        id: session.txId,
        transactionId: session.txId,
        transactionHid: session.txHid,
        merchantId: r.world.sandbox.defaultMerchant.merchantId,
        orderId: session.id,
        customId: session.id,
        action: cart.kind === "subscription" ? "subscription" : "onetime",
        status: "charged",
        success: true,
        amount,
        currency: "twd",
      })
    )
  }
  private forgeWebhook(r: Real, intent: IntentView) {
    const { id, amount, orderId } = intent
    const body = JSON.stringify({
      id: `evt_forged${Date.now()}`,
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: { id, status: "succeeded", amount, currency: "TWD", orderId },
    })
    return call(
      r.world.api.post(EMBEDDED_HOOK_PATH, JSON.parse(body), {
        headers: { "content-type": "application/json", "svc-signature": signPayload(body, FORGER_SECRET) },
        transformRequest: [() => body],
      })
    )
  }
  toString = () => `forgeChargedNotification(${this.index})`
}

/**
 * Every command; shopper payments, completions and deliveries listed more than once weigh more.
 * Convenience-store codes (`cvs`) are in by default; `MONEY_MODEL_CVS=0` leaves them out.
 */
export function moneyCommands({ cvs = true, embedded = true }: { cvs?: boolean; embedded?: boolean } = {}) {
  const index = fc.nat({ max: 7 })
  return [
    fc.constantFrom(1, 2).map((q) => new StartPayment(q)),
    ...(embedded
      ? [
          fc.constantFrom(1, 2).map((q) => new StartPayment(q, true)),
          ...[1, 2].map(() =>
            fc.tuple(index, fc.constantFrom<IntentCard>("declined", "processing, then paid", "processing, then declined")).map(([i, c]) => new PayIntent(i, c))
          ),
        ]
      : []),
    fc.constant(new Subscribe()),
    fc.constant(new Subscribe(true)),
    fc.constantFrom<CardOwner>("customer", "other").map((owner) => new BindCard(owner)),
    ...[1, 2].map(() =>
      fc
        .tuple(index, fc.constantFrom<"owner" | "guest" | "another customer">("owner", "owner", "guest", "another customer"), fc.constantFrom<1 | 2>(1, 2))
        .map(([i, whose, times]) => new PayWithSavedCard(i, whose, times))
    ),
    fc.tuple(fc.constantFrom<"c026" | "http500" | "timeout">("c026", "http500", "timeout"), fc.boolean()).map(([kind, applied]) => new ChargeFault(kind, applied)),
    index.map((i) => new PayPage(i)),
    index.map((i) => new PayPage(i)),
    index.map((i) => new PayPage(i)),
    index.map((i) => new PayTwoPages(i)),
    ...(cvs
      ? [
          index.map((i) => new PayPage(i, "cvs")),
          index.map((i) => new PayPage(i, "atm")),
          ...[1, 2].map(() => fc.tuple(index, fc.constantFrom<"pay" | "expire">("pay", "pay", "expire")).map(([i, outcome]) => new AtCounter(i, outcome))),
        ]
      : []),
    index.map((i) => new RestartPayment(i)),
    fc.tuple(index, fc.constantFrom<"shopper" | "stranger">("shopper", "stranger")).map(([i, by]) => new NewSession(i, by)),
    index.map((i) => new Abandon(i)),
    index.map((i) => new Complete(i, 1)),
    index.map((i) => new Complete(i, 1)),
    index.map((i) => new Complete(i, 2)),
    index.map((i) => new ChangeCart(i)),
    fc.tuple(index, fc.constantFrom<"customer" | "merchant">("customer", "merchant")).map(([i, by]) => new CancelSubscription(i, by)),
    fc.constant(new Deliver()),
    fc.constant(new Deliver()),
    fc.tuple(fc.constantFrom<"drop" | "duplicate" | "reorder">("drop", "duplicate", "reorder"), fc.constantFrom<1 | 2>(1, 2)).map(([k, count]) => new Fault(k, count)),
    fc.constant(new AdvanceMonth()),
    index.map((i) => new CancelOrder(i)),
    index.map((i) => new RefundPayment(i)),
    fc.constantFrom(0, 3).map((n) => new SetStock(n)),
    index.map((i) => new Forge(i)),
  ]
}

/**
 * What every sequence starts with (shrinkable too): a one-time cart, one or two subscription checkouts, both
 * kinds, a card bound by the customer, or (with `embedded`) a one-time cart paid through a payment intent.
 */
export const preludes = ({ embedded = true }: { embedded?: boolean } = {}) =>
  fc.constantFrom("one-time", "subscription", "two-subscriptions", "both", "saved-card", ...(embedded ? ["embedded"] : []))

const PRELUDES: Record<string, () => Step[]> = {
  "one-time": () => [new StartPayment(1)],
  subscription: () => [new Subscribe()],
  "two-subscriptions": () => [new Subscribe(), new Subscribe()],
  both: () => [new StartPayment(1), new Subscribe()],
  "saved-card": () => [new BindCard("customer")],
  embedded: () => [new StartPayment(1, true)],
}

export async function runPrelude(prelude: string, model: Model, real: Real) {
  const steps = PRELUDES[prelude]()
  for (const step of steps) {
    await step.run(model, real)
  }
}

interface ServiceTx {
  id: string
  transactionHid: string
  orderId: string
  status: string
  amount: number
  refundAmount?: number
  subscriptionId?: string
  origin: string
  paymentMethod?: string
  refund?: { status: string; amount: number }
}

const refundedAtService = (tx: ServiceTx) => !!tx.refund && tx.refund.status !== "cancelled"

interface IntentView {
  id: string
  status: string
  amount: number
  orderId: string
  amountRefundable: number
}

/**
 * What the service holds for these sessions: hosted transactions (pages, saved-card charges, periods) and
 * embedded payment intents, the latter in the same shape (its refunds as one amount).
 */
async function serviceRecords(world: World, sessionIds: string[], cartIds: string[]): Promise<ServiceTx[]> {
  // A page started through the store route names its cart as its order; other payments name their session.
  const listed = (await Promise.all([...sessionIds, ...cartIds].map(async (id) => (await control(world.sandbox, "GET", `/transactions?orderId=${id}`)).transactions as ServiceTx[]))).flat()
  const txs = [...new Map(listed.map((tx) => [tx.id, tx])).values()]
  const { paymentIntents } = (await control(world.sandbox, "GET", "/payment-intents")) as { paymentIntents: IntentView[] }
  const intents = paymentIntents
    .filter((i) => sessionIds.includes(i.orderId))
    .map((i): ServiceTx => {
      const refunded = i.status === "succeeded" ? i.amount - i.amountRefundable : 0
      return { id: i.id, transactionHid: i.id, orderId: i.orderId, status: i.status, amount: i.amount, origin: "embedded", paymentMethod: "card", refund: refunded > 0 ? { status: "refunded", amount: refunded } : undefined }
    })
  return [...txs, ...intents]
}

/**
 * After the sequence: the reconciliation, then I1 to I7 from the sandbox's truth.
 * Returns every violation found (empty when all hold).
 */
export async function reconcileAndCheck(model: Model, real: Real): Promise<string[]> {
  const { world } = real
  const violations = [...real.violations]
  await settle()

  const sessionIds = model.carts.flatMap((c) => c.sessions.map((s) => s.id))
  const serviceTxs = () =>
    serviceRecords(
      world,
      sessionIds,
      model.carts.map((c) => c.cartId)
    )

  // I6, before the reconciliation can hide it: a real charge notification delivered after a forgery was acted on.
  if (real.forged.length) {
    const { notifications } = await control(world.sandbox, "GET", "/notifications?purpose=charge")
    const { deliveries } = (await control(world.sandbox, "GET", "/webhook-deliveries?eventType=payment_intent.succeeded")) as {
      deliveries: Array<{ payload: string; state: string; createdAt: string }>
    }
    const txs = await serviceTxs()
    const captured = await capturedPaymentsByTx(world, real.started)
    // A code paid for a session the store dropped is acted on by recording it as due for remittance.
    const due = new Set((await sql(world)("tw_remittance_due").select("transaction_id")).map((row: { transaction_id: string }) => row.transaction_id))
    for (const forgery of real.forged) {
      const tx = txs.find((t) => t.id === forgery.txId)
      const delivered = forgery.embedded
        ? deliveries.some((d) => (JSON.parse(d.payload) as { data?: { id?: string } }).data?.id === forgery.txId && d.state === "delivered" && d.createdAt > forgery.at)
        : (notifications as Array<{ body: Record<string, unknown>; state: string; createdAt: string }>).some(
            (n) => n.body.transactionId === forgery.txId && n.state === "delivered" && n.createdAt > forgery.at && n.body.status === "charged"
          )
      if (tx && delivered && PAID.has(tx.status) && !refundedAtService(tx) && !(captured.get(tx.id) ?? []).length && !due.has(tx.id)) {
        violations.push(`I6: ${tx.id} was forged, then paid and its real notification delivered, but the store did not act on it (no captured payment, no refund, no remittance due) before reconciliation`)
      }
    }
  }

  const reconciling = Date.now()
  for (let round = 0; round < 2; round++) {
    await reconcileTwPayments(world.container, { force: true })
    await reconcileTwSubscriptions(world.container, { force: true })
    await settle()
  }
  real.trace.push(`reconciliation, twice [${((Date.now() - reconciling) / 1000).toFixed(1)} s]`)
  // The merchant returns what only a remittance can (cvs codes paid for a session the store dropped), with
  // the shopper's bank account, as the admin's Remittances page does.
  const remitted = await remitWhatIsDue(world)
  if (remitted.length) {
    real.trace.push(`merchant remitted ${remitted.join(", ")}`)
  }

  if (world.sabotage) {
    real.trace.push(`sabotage ${world.sabotage}: ${await sabotage(world, model, await serviceTxs(), await capturedPaymentsByTx(world, real.started))}`)
  }
  const txs = await serviceTxs()
  const byTx = await capturedPaymentsByTx(world, real.started)
  const txIds = new Set(txs.flatMap((t) => [t.id, t.transactionHid]))

  // I1 and I2, per service transaction.
  for (const tx of txs) {
    const captured = [...(byTx.get(tx.id) ?? []), ...(tx.transactionHid !== tx.id ? (byTx.get(tx.transactionHid) ?? []) : [])]
    const label = `${tx.id} (${tx.transactionHid}, ${tx.origin}, ${tx.status}${tx.refund ? `, refund ${tx.refund.status} ${tx.refund.amount}` : ""})`
    if (PAID.has(tx.status) && !refundedAtService(tx)) {
      const onLive = captured.filter((p) => p.orderStatus && p.orderStatus !== "canceled" && !p.refunded)
      // A code paid after its order was cancelled: the service returns it only to a bank account the shopper
      // gives, so the store records it on the cancelled order for the merchant to remit (as the chaos harness counts it).
      const awaitingRemittance = REMITTED.has(tx.paymentMethod ?? "") && captured.length === 1 && captured[0].orderStatus === "canceled" && !captured[0].refunded
      if (awaitingRemittance) {
        real.trace.push(`${label}: awaiting remittance on cancelled order ${captured[0].orderId}`)
      } else if (onLive.length !== 1 || captured.length !== 1) {
        violations.push(`I1: paid ${label} has ${captured.length} captured Medusa payment(s), ${onLive.length} on a live order: ${describe(captured)}`)
      }
    } else if (refundedAtService(tx)) {
      for (const p of captured) {
        if (p.refunded < Number(tx.refund!.amount)) {
          violations.push(`I1/I2: refunded ${label} has Medusa payment ${p.id} captured without the refund recorded (refunds ${p.refunded}; order ${p.orderId ?? "none"} ${p.orderStatus ?? ""})`)
        }
      }
    } else {
      for (const p of captured) {
        violations.push(`I2: Medusa payment ${p.id} captured while its service transaction ${label} is unpaid (order ${p.orderId ?? "none"})`)
      }
    }
  }
  // I2 for captured payments whose transaction the service does not know in this sequence's sessions.
  for (const [key, payments] of byTx) {
    for (const p of payments) {
      if (!txIds.has(key) && p.sessionId && sessionIds.includes(p.sessionId)) {
        violations.push(`I2: Medusa payment ${p.id} captured for ${key}, which the service does not list for its session`)
      }
    }
  }

  violations.push(...(await awaitedCodes(world, model, txs)))

  real.trace.push(
    `checked ${txs.length} service transaction(s): ${txs.map((t) => `${t.transactionHid} ${t.origin} ${t.status}${refundedAtService(t) ? " refunded" : ""}`).join(", ") || "none"}; ${[...byTx.values()].flat().length} captured payment(s)`
  )
  // I3 and I5, per subscription.
  const subscribed = model.carts.filter(withSubscription)
  if (subscribed.length) {
    const { subscriptions } = (await control(world.sandbox, "GET", "/subscriptions")) as { subscriptions: Array<{ id: string; status: string }> }
    const orders = await ordersOfRun(world, model)
    for (const cart of subscribed) {
      const detail = await call(world.api.get(`/admin/tw-subscriptions/${cart.subscriptionId}`, { headers: world.admin }))
      const mine = detail.data.subscription as { status: string; first_order_id: string | null; service_subscription_id: string | null }
      const ownTxs = txs.filter((t) => cart.sessions.some((s) => s.id === t.orderId))
      const hids = new Set([...ownTxs.map((t) => t.subscriptionId), mine.service_subscription_id].filter(Boolean))
      for (const sub of subscriptions.filter((s) => hids.has(s.id))) {
        const storeLive = ["active", "retrying", "pending_first_charge"].includes(mine.status) && !!mine.first_order_id
        if (LIVE_SERVICE_SUBSCRIPTION.has(sub.status) && !storeLive) {
          violations.push(`I3: service subscription ${sub.id} is ${sub.status} while the store's ${cart.subscriptionId} is ${mine.status} (first order ${mine.first_order_id ?? "none"})`)
        }
      }
      for (const tx of ownTxs.filter((t) => t.origin === "recurring")) {
        const renewals = orders.filter((o) => o.metadata?.tw_transaction_hid === tx.transactionHid || o.metadata?.tw_transaction_hid === tx.id)
        if (renewals.length > 1 || (PAID.has(tx.status) && !refundedAtService(tx) && renewals.length !== 1)) {
          violations.push(`I5: period ${tx.transactionHid} (${tx.status}) of ${cart.subscriptionId} has ${renewals.length} renewal order(s): ${renewals.map((o) => `${o.id} ${o.status}`).join(", ")}`)
        }
      }
    }
  }
  // I4: a saved card is charged only for its own customer's cart (as the store has it), at most once per session.
  const savedCardCarts = model.carts.filter((c) => c.savedCard && c.sessions.length)
  const customerOfCart = new Map<string, string | null>()
  if (savedCardCarts.length) {
    const query = world.container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "cart", fields: ["id", "customer_id"], filters: { id: savedCardCarts.map((c) => c.cartId) } })
    ;(data as Array<{ id: string; customer_id: string | null }>).forEach((row) => customerOfCart.set(row.id, row.customer_id))
  }
  for (const cart of savedCardCarts) {
    const owner = shopperOf(world, cart.savedCard!.owner)
    const customerId = customerOfCart.get(cart.cartId)
    const whose = customerId ? `customer ${customerId}` : "a guest"
    for (const session of cart.sessions) {
      const charges = txs.filter((t) => t.orderId === session.id && t.origin !== "recurring")
      if (customerId !== owner.id) {
        violations.push(`I4: a session with card ${cart.savedCard!.id} of customer ${owner.id} was accepted on cart#${cart.n} of ${whose}${charges.length ? `, and charged ${charges.length} time(s)` : ""}`)
      } else if (charges.filter((t) => PAID.has(t.status)).length > 1) {
        violations.push(`I4: session ${session.id} charged card ${cart.savedCard!.id} ${charges.length} times: ${charges.map((t) => `${t.id} ${t.status}`).join(", ")}`)
      }
    }
  }
  return violations
}

const sql = (world: World) => world.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)

/** The carts of the sequence whose order is live and holds no captured payment, with that order. */
async function ordersAwaitingPayment(world: World, model: Model) {
  const awaiting: Array<{ cart: CartRef; orderId: string }> = []
  for (const cart of model.carts.filter((c) => c.codes?.length)) {
    const order = await orderOfCart(world.container, cart.cartId)
    const captured = (order?.payment_collections ?? []).some((pc: { payments?: Array<{ captured_at?: unknown } | null> } | null) => pc?.payments?.some((p) => p?.captured_at))
    if (order && order.status !== "canceled" && !captured) {
      awaiting.push({ cart, orderId: order.id })
    }
  }
  return awaiting
}

/**
 * I7: an order awaiting its payment stays payable until its code expires, and money paid for it reaches it.
 * A live order of a cart with codes, holding no captured payment, has none of its codes voided or paid.
 */
async function awaitedCodes(world: World, model: Model, txs: ServiceTx[]): Promise<string[]> {
  const violations: string[] = []
  for (const { cart, orderId } of await ordersAwaitingPayment(world, model)) {
    for (const tx of txs.filter((t) => cart.codes!.includes(t.id))) {
      if (tx.status === "cancelled") {
        violations.push(`I7: order ${orderId} of cart#${cart.n} awaits its payment, but code ${tx.transactionHid} (${tx.paymentMethod}) was voided`)
      } else if (PAID.has(tx.status) || refundedAtService(tx)) {
        violations.push(`I7: code ${tx.transactionHid} (${tx.paymentMethod}) of cart#${cart.n} was paid (${tx.status}), but order ${orderId} is live without it`)
      }
    }
  }
  return violations
}

/** Breaks one invariant in the store's database (the checks' self-test); says what it did, or that nothing fit. */
async function sabotage(world: World, model: Model, txs: ServiceTx[], byTx: Map<string, CapturedPayment[]>): Promise<string> {
  const knex = sql(world)
  const captured = txs.flatMap((tx) => (PAID.has(tx.status) && !refundedAtService(tx) ? (byTx.get(tx.id) ?? []).map((p) => ({ tx, p })) : []))
  switch (world.sabotage) {
    case "I1": {
      // A paid order cancelled without its payment refunded.
      const live = captured.find(({ p }) => p.orderId && p.orderStatus !== "canceled")
      if (!live) {
        return "no captured order"
      }
      await knex("order").where({ id: live.p.orderId }).update({ status: "canceled" })
      return `order ${live.p.orderId} marked canceled`
    }
    case "I2": {
      // A captured payment pointed at a transaction of the sequence that is not paid.
      const unpaid = txs.find((tx) => !PAID.has(tx.status))
      if (!captured.length || !unpaid) {
        return "no captured payment and unpaid transaction"
      }
      await knex.raw(`update payment set data = jsonb_set(data, '{transactionId}', to_jsonb(?::text)) where id = ?`, [unpaid.id, captured[0].p.id])
      return `payment ${captured[0].p.id} now names ${unpaid.id} (${unpaid.status})`
    }
    case "I3": {
      const ids = model.carts.map((c) => c.subscriptionId).filter(Boolean) as string[]
      const rows = ids.length ? await knex("tw_subscription").whereIn("id", ids).whereIn("status", ["active", "retrying"]).select("id") : []
      if (!rows.length) {
        return "no live subscription"
      }
      await knex("tw_subscription").where({ id: rows[0].id }).update({ status: "cancelled" })
      return `subscription ${rows[0].id} marked cancelled in the store only`
    }
    case "I4": {
      // A saved card's cart handed to the other customer, as if the session had been accepted on their cart.
      const paid = model.carts.find((c) => c.savedCard?.owner === "customer" && c.sessions.length)
      if (!paid) {
        return "no saved-card session"
      }
      await knex("cart").where({ id: paid.cartId }).update({ customer_id: world.other.id })
      return `cart ${paid.cartId} now the other customer's`
    }
    case "I5": {
      const renewal = (await ordersOfRun(world, model)).find((o) => o.metadata?.tw_transaction_hid)
      if (!renewal) {
        return "no renewal order"
      }
      await knex.raw(`update "order" set metadata = metadata - 'tw_transaction_hid' where id = ?`, [renewal.id])
      return `renewal order ${renewal.id} lost its transaction`
    }
    case "I7": {
      // A convenience-store code of an order awaiting it voided behind the store's back (a refund of an unpaid code, spec 4.10).
      const code = (await ordersAwaitingPayment(world, model))
        .flatMap(({ cart }) => txs.filter((tx) => cart.codes!.includes(tx.id) && tx.status === "charging" && tx.paymentMethod === "cvs"))
        .at(0)
      if (!code) {
        return "no order awaiting a cvs code"
      }
      const merchant = world.sandbox.defaultMerchant
      const client = new HostedCheckoutClient({ apiToken: merchant.token, merchantId: merchant.merchantId, baseUrl: world.sandbox.hostedBaseUrl, checkoutHost: world.sandbox.checkoutHost })
      await client.refunds.create(code.transactionHid, { reason: "sabotage" })
      return `code ${code.transactionHid} voided at the service`
    }
    default:
      return "done in the forge step"
  }
}

interface CapturedPayment {
  id: string
  amount: number
  refunded: number
  orderId?: string
  orderStatus?: string
  sessionId?: string
}

function describe(payments: CapturedPayment[]) {
  return payments.map((p) => `${p.id} on ${p.orderId ?? "no order"} ${p.orderStatus ?? ""} refunded ${p.refunded}`).join("; ") || "none"
}

/** Captured Medusa payments created since `since`, by the service transaction id and P number they carry. */
async function capturedPaymentsByTx(world: World, since: number) {
  const paymentModule = world.container.resolve(Modules.PAYMENT)
  const query = world.container.resolve(ContainerRegistrationKeys.QUERY)
  const payments = await paymentModule.listPayments({ created_at: { $gte: new Date(since) } } as never, { relations: ["captures", "refunds"] })
  const captured = payments.filter((p) => (p.captures ?? []).length > 0 || p.captured_at)
  const collectionIds = [...new Set(captured.map((p) => p.payment_collection_id))]
  const orderOf = new Map<string, { id: string; status: string }>()
  if (collectionIds.length) {
    const { data } = await query.graph({ entity: "order_payment_collection", fields: ["order_id", "payment_collection_id"], filters: { payment_collection_id: collectionIds } })
    const orderIds = (data as Array<{ order_id: string }>).map((l) => l.order_id)
    const { data: orders } = orderIds.length ? await query.graph({ entity: "order", fields: ["id", "status"], filters: { id: orderIds } }) : { data: [] }
    for (const link of data as Array<{ order_id: string; payment_collection_id: string }>) {
      const order = (orders as Array<{ id: string; status: string }>).find((o) => o.id === link.order_id)
      if (order) {
        orderOf.set(link.payment_collection_id, order)
      }
    }
  }
  const byTx = new Map<string, CapturedPayment[]>()
  for (const p of captured) {
    const data = (p.data ?? {}) as Record<string, unknown>
    const order = orderOf.get(p.payment_collection_id)
    const entry: CapturedPayment = {
      id: p.id,
      amount: Number(p.amount),
      refunded: (p.refunds ?? []).reduce((sum, r) => sum + Number(r.amount), 0),
      orderId: order?.id,
      orderStatus: order?.status,
      sessionId: (p as { payment_session_id?: string }).payment_session_id ?? undefined,
    }
    const key = String(data.transactionId ?? data.paymentIntentId ?? data.transactionHid ?? `unknown:${p.id}`)
    byTx.set(key, [...(byTx.get(key) ?? []), entry])
  }
  return byTx
}

const SHOPPER_ACCOUNT = { bankCode: "004", bankName: "Bank of Taiwan", branchCode: "0037", branchName: "Xinyi", account: "123456789012", accountName: "Model Shopper" }

/** Refunds every remittance due through the admin route; answers what each refund said. */
async function remitWhatIsDue(world: World): Promise<string[]> {
  const listed = await call(world.api.get("/admin/tw-remittances?limit=100", { headers: world.admin }))
  const due = (listed.data.remittances ?? []) as Array<{ id: string; transaction_id: string }>
  return Promise.all(
    due.map(async (row) => `${row.transaction_id}: ${brief(await call(world.api.post(`/admin/tw-remittances/${row.id}/refund`, SHOPPER_ACCOUNT, { headers: world.admin })))}`)
  )
}

/**
 * After the checks: ends what the sequence left at the service that would keep charging in later
 * sequences, and retires its still-open sessions and subscriptions (`canceled`, and subscriptions
 * soft-deleted, straight in the database), so that later sequences' reconciliation walks only their own instead of up to 50 stale ones at
 * 5 reads/s (and, for subscriptions, within a budget taken oldest first, which would miss the new ones).
 */
export async function cleanUp(model: Model, real: Real) {
  const sessions = model.carts.flatMap((c) => c.sessions.map((s) => s.id))
  if (sessions.length) {
    await sql(real.world)("payment_session").whereIn("id", sessions).whereIn("status", ["pending", "requires_more", "pending_authorization"]).update({ status: "canceled" })
  }
  // The same for its subscriptions, which reconcile-tw-subscriptions walks oldest first within a budget.
  const subscriptionIds = model.carts.map((c) => c.subscriptionId).filter((id): id is string => !!id)
  if (subscriptionIds.length) {
    // Soft-deleted, not cancelled: the job also reads cancelled ones whose page may have started a subscription.
    await sql(real.world)("tw_subscription").whereIn("id", subscriptionIds).update({ status: "cancelled", next_charge_at: null, deleted_at: new Date() })
  }
  for (const savedCard of model.cards) {
    await call(real.world.api.delete(`/store/customers/me/tw-saved-cards/${savedCard.id}`, { headers: shopperOf(real.world, savedCard.owner).headers }))
  }
  await control(real.world.sandbox, "DELETE", "/faults")
  const sessionIds = new Set(model.carts.flatMap((c) => c.sessions.map((s) => s.id)))
  const { subscriptions } = (await control(real.world.sandbox, "GET", "/subscriptions")) as { subscriptions: Array<{ id: string; status: string }> }
  const txs = await serviceRecords(
    real.world,
    [...sessionIds],
    model.carts.map((c) => c.cartId)
  )
  const mine = new Set(txs.map((t) => t.subscriptionId).filter(Boolean))
  for (const sub of subscriptions.filter((s) => mine.has(s.id) && !["cancelled", "completed", "error"].includes(s.status))) {
    await control(real.world.sandbox, "POST", `/subscriptions/${sub.id}/cancel`, { reason: "end of model sequence" }).catch(() => undefined)
  }
  // Codes never paid: expired now, and their orders awaiting payment cancelled now, not in a later sequence;
  // the same for cards still processing.
  const codes = txs.filter((t) => t.status === "charging" && model.carts.some((c) => c.codes?.includes(t.id)))
  for (const tx of codes) {
    await control(real.world.sandbox, "POST", `/transactions/${tx.id}/expire`).catch(() => undefined)
  }
  const processing = txs.filter((t) => t.origin === "embedded" && t.status === "processing")
  for (const intent of processing) {
    await control(real.world.sandbox, "POST", `/payment-intents/${intent.id}/processing-resolve`, { outcome: "failed" }).catch(() => undefined)
  }
  if (codes.length || processing.length) {
    await settle()
  }
}
