import { randomBytes } from "node:crypto"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createCartWorkflow } from "@medusajs/medusa/core-flows"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../src/modules/tw-saved-card"
import { settleSavedCardCharges } from "../../src/reconciliation/settle-saved-card-charges"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import { hostedApi } from "../../src/providers/plugin-hosted-api"
import {
  adminToken,
  card,
  control,
  createCart,
  createProductWithPlan,
  expectOneCapturedOrder,
  orderOfCart,
  payPage,
  PROVIDER_ID,
  PROVIDER_KEY,
  seedStore,
  settle,
  type Store,
  SUCCESS_CARD,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"
import { expectNoTokenLeaks } from "../helpers/token-leaks"

jest.setTimeout(240_000)
// The reconciliation runs only when a test calls it.
process.env.TW_RECONCILIATION = "off"
// This run's own key, so the sweep after each test can look for it too.
const TOKEN_KEY = randomBytes(32).toString("base64")
process.env.TW_CARD_TOKEN_KEYS = `run:${TOKEN_KEY}`
const env = useSandbox()

/** Binds (the binding page takes no charge); every later charge of the token fails with T0001. */
const FAILING_CHARGES_CARD = "4000000000010019"
const DAY = 24 * 3600
/** Days that always pass a month's due time (the same day next month, 09:00 Taipei). */
const MONTH = 32
/** Past the grace after which a charge the service never shows counts as not made. */
const AFTER_GRACE = 3 * 60_000

type Headers = Record<string, string>
interface Answer {
  status: number
  data: Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Paying and subscribing with a saved card, end to end: cards bound on the
 * sandbox's binding page through the store's route, sessions created with
 * `{ savedCardId }` through the store API, carts completed as usual (the
 * plugin's middleware charges `/token/transactions` once), the sandbox's
 * faults on the charge, and the reconciliation of unknown outcomes. Every
 * log line and API answer of the file is searched for the card tokens.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: Headers
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      admin = await adminToken(api, getContainer())
    })
    const { lines } = expectNoTokenLeaks(api, getContainer, env, TOKEN_KEY)

    const fault = (body: Record<string, unknown>) => control(env.sandbox, "POST", "/faults", { endpoint: "POST /token/transactions", ...body })
    const module = () => getContainer().resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
    const chargeRows = (sessionId: string) => module().listTwSavedCardCharges({ payment_session_id: sessionId })
    const chargeRowsOfCard = (savedCardId: string) => module().listTwSavedCardCharges({ saved_card_id: savedCardId })

    /** The service's transactions of one `orderId` (a saved card's charges carry the session id). */
    async function serviceCharges(sessionId: string) {
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${sessionId}`)
      return transactions as Array<{ id: string; status: string; amount: number; origin: string }>
    }

    /**
     * The service shows a charge of the card under the session's `orderId` that the store's own
     * call did not report (an outcome that was unknown): made here with the card's token, as the service had.
     */
    async function lateCharge(savedCardId: string, sessionId: string, amount: number) {
      const { notifications } = await control(env.sandbox, "GET", "/notifications?purpose=token")
      const token = (notifications as Array<{ body: { token?: string; customId?: string } }>).find((n) => n.body.customId === savedCardId)?.body.token
      expect(token).toBeTruthy()
      const hosted = hostedApi(getContainer(), PROVIDER_KEY)
      await hosted.client.tokenCharges.create({ merchantId: hosted.options.merchantId, amount, currency: "TWD", orderId: sessionId, productDetails: [hosted.productLine(amount)], token: token! })
    }

    let customers = 0
    async function customer(): Promise<{ headers: Headers; id: string }> {
      const email = `payer${++customers}-${randomBytes(3).toString("hex")}@example.test`
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      const { data } = await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { headers: { ...store.headers, authorization: `Bearer ${login.token}` }, id: data.customer.id }
    }

    /** Binds a card through the store's route and the binding page; waits until it is active and mirrored in the account holder. */
    async function savedCard(shopper: { headers: Headers; id: string }, number = SUCCESS_CARD): Promise<string> {
      const { data } = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers })
      await payPage(data.checkout_url, card(number))
      const id: string = data.saved_card.id
      await waitFor(async () => {
        const { data: list } = await api.get("/store/customers/me/tw-saved-cards", { headers: shopper.headers })
        return list.saved_cards.some((c: { id: string; status: string }) => c.id === id && c.status === "active")
      }, `card ${id} active`)
      await waitFor(async () => {
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data: customers } = await query.graph({ entity: "customer", fields: ["account_holders.*"], filters: { id: shopper.id } })
        const holders = (customers[0] as { account_holders?: Array<{ provider_id: string; data: { tw_saved_cards?: Array<{ id: string }> } } | null> }).account_holders ?? []
        return holders.some((h) => h?.provider_id === PROVIDER_ID && h.data.tw_saved_cards?.some((c) => c.id === id))
      }, `card ${id} in the account holder`)
      return id
    }

    /** A cart of a logged-in customer: a saved card pays only for its own customer's cart. */
    async function cartOf(shopper: { id: string }, amount: number) {
      const { result } = await createCartWorkflow(getContainer()).run({
        input: {
          region_id: store.regionId,
          sales_channel_id: store.salesChannelId,
          currency_code: "twd",
          customer_id: shopper.id,
          items: [{ title: "Oolong tea", unit_price: amount, quantity: 1, requires_shipping: false }],
        },
      })
      return result
    }

    const rejected = (error: { response?: Answer }) => {
      if (!error.response) {
        throw error
      }
      return error.response
    }

    /** A payment session through the store API, as the storefront makes it. */
    async function session(headers: Headers, cartId: string, data: Record<string, unknown>): Promise<Answer> {
      const { data: collection } = await api.post("/store/payment-collections", { cart_id: cartId }, { headers: store.headers })
      return api
        .post(`/store/payment-collections/${collection.payment_collection.id}/payment-sessions`, { provider_id: PROVIDER_ID, data }, { headers })
        .catch(rejected)
    }

    async function savedCardSession(headers: Headers, cartId: string, savedCardId: string) {
      const answer = await session(headers, cartId, { savedCardId })
      expect(answer.status).toBe(200)
      const collection = answer.data.payment_collection
      return { collectionId: collection.id as string, session: collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === PROVIDER_ID) }
    }

    const complete = (cartId: string, headers: Headers = store.headers): Promise<Answer> =>
      api.post(`/store/carts/${cartId}/complete`, {}, { headers }).catch(rejected)

    it("pays with a saved card: the session names only the card, completing charges it once and places one captured order", async () => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      const cart = await cartOf(shopper, 1280)
      const { collectionId, session: created } = await savedCardSession(shopper.headers, cart.id, cardId)

      // No page, no transaction yet, and the card only by its id and last four digits.
      expect(created.status).toBe("pending")
      expect(created.data).toMatchObject({ savedCardId: cardId, savedCard: { id: cardId, last4: "4242" }, amount: 1280 })
      expect(created.data.checkoutUrl).toBeUndefined()
      expect(created.data.transactionId).toBeUndefined()
      expect(await serviceCharges(created.id)).toEqual([])

      const completed = await complete(cart.id)
      expect(completed.status).toBe(200)
      expect(completed.data.type).toBe("order")
      const order = await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      const [payment] = order.payment_collections![0]!.payments!
      expect(Number(payment!.amount)).toBe(1280)
      expect(payment!.data).toMatchObject({ savedCard: { id: cardId, last4: "4242" }, status: "charged", paymentInfo: "4242", transactionId: expect.stringMatching(/^[A-Za-z0-9]{27}$/) })

      // One charge at the service, under the session's id, and one row for it.
      const charges = await serviceCharges(created.id)
      expect(charges).toEqual([expect.objectContaining({ status: "charged", amount: 1280, origin: "tokenCharge" })])
      expect(await chargeRows(created.id)).toEqual([expect.objectContaining({ status: "paid", saved_card_id: cardId, amount: 1280 })])

      // A late second completion changes nothing.
      const again = await complete(cart.id)
      expect(again.data.order?.id).toBe(order.id)
      expect(await serviceCharges(created.id)).toHaveLength(1)

      // It is refunded like any hosted card payment.
      const { data: refunded } = await api.post(`/admin/payments/${payment!.id}/refund`, { amount: 1280 }, { headers: admin })
      expect(refunded.payment.refunds).toHaveLength(1)
      expect((await serviceCharges(created.id))[0].status).toMatch(/^refunded/)
    })

    it("refuses another customer's card, a guest, an unknown or deleted card before any session exists", async () => {
      const owner = await customer()
      const other = await customer()
      const cardId = await savedCard(owner)
      const cart = await cartOf(owner, 500)

      const theirs = await session(other.headers, cart.id, { savedCardId: cardId })
      expect(theirs.status).toBe(400)
      expect(theirs.data.message).toBe(`Saved card ${cardId} is not an active saved card of this customer.`)
      const guest = await session(store.headers, cart.id, { savedCardId: cardId })
      expect(guest.status).toBe(400)
      expect(guest.data.message).toMatch(/Log in to pay with a saved card/)
      const unknown = await session(owner.headers, cart.id, { savedCardId: "twcard_01UNKNOWN" })
      expect(unknown.status).toBe(400)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["id"] })
      expect(sessions).toEqual([])

      // Deleted by its owner: refused too.
      await api.delete(`/store/customers/me/tw-saved-cards/${cardId}`, { headers: owner.headers })
      const deleted = await session(owner.headers, cart.id, { savedCardId: cardId })
      expect(deleted.status).toBe(400)
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
    })

    it("refuses a saved card on a guest's or another customer's cart (by its payment collection's id): no session, no charge, nothing of theirs shown", async () => {
      const owner = await customer()
      const cardId = await savedCard(owner)
      // A guest's cart, with the guest's name and email, and its payment collection (its id is all the attacker has).
      const guestCart = await createCart(getContainer(), store, 730)
      await api.post(`/store/carts/${guestCart.id}`, { billing_address: { first_name: "Guest", last_name: "Wang" } }, { headers: store.headers })
      const { data: guestCollection } = await api.post("/store/payment-collections", { cart_id: guestCart.id }, { headers: store.headers })
      // Another customer's own cart, likewise.
      const other = await customer()
      const otherCart = await cartOf(other, 820)
      const { data: otherCollection } = await api.post("/store/payment-collections", { cart_id: otherCart.id }, { headers: store.headers })

      for (const collection of [guestCollection.payment_collection, otherCollection.payment_collection]) {
        const answer: Answer = await api
          .post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: PROVIDER_ID, data: { savedCardId: cardId } }, { headers: owner.headers })
          .catch(rejected)
        expect(answer.status).toBe(400)
        expect(answer.data.message).toBe("A saved card pays only for its own customer's cart: this cart is not yours.")
        const text = JSON.stringify(answer.data)
        for (const theirs of ["shopper@example.test", "Guest", "Wang", other.id, guestCart.id, otherCart.id]) {
          expect(text).not.toContain(theirs)
        }
      }
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["id"] })
      expect(sessions).toEqual([])

      // The guest completes the cart: nothing is charged to the owner's card, no order.
      const completed = await complete(guestCart.id)
      expect(completed.data.type).not.toBe("order")
      expect(await orderOfCart(getContainer(), guestCart.id)).toBeUndefined()
      expect(await chargeRowsOfCard(cardId)).toEqual([])
      // The owner's own cart still takes the card.
      const own = await cartOf(owner, 640)
      await savedCardSession(owner.headers, own.id, cardId)
      expect((await complete(own.id)).data.type).toBe("order")
    })

    it("a cart whose customer changed after its saved-card session was made: the completion charges nothing", async () => {
      const owner = await customer()
      const other = await customer()
      const cardId = await savedCard(owner)
      const cart = await cartOf(owner, 590)
      const { session: created } = await savedCardSession(owner.headers, cart.id, cardId)
      // The cart changes hands (as a transfer would), its session stays.
      await getContainer().resolve(Modules.CART).updateCarts(cart.id, { customer_id: other.id })

      const refused = await complete(cart.id, other.headers)
      expect(refused.status).toBe(400)
      expect(refused.data.message).toBe("The saved card chosen for this cart is not of the cart's customer. Nothing was charged: choose a payment method again.")
      expect(refused.data.message).not.toContain("4242")
      expect(await serviceCharges(created.id)).toEqual([])
      expect(await chargeRows(created.id)).toEqual([])
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
    })

    it.each([
      ["C026 with the charge applied", { kind: "c026", applied: true }],
      ["a time-out with the charge applied", { kind: "timeout", holdMs: 1_000, then: "drop", applied: true }],
      ["a 5xx with the charge applied", { kind: "http500", applied: true }],
    ])("%s: the charge is read by its order, never sent again; one charge, one order", async (_name, faultBody) => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      const cart = await cartOf(shopper, 700)
      const { collectionId, session: created } = await savedCardSession(shopper.headers, cart.id, cardId)
      await fault(faultBody)

      const completed = await complete(cart.id)
      expect(completed.status).toBe(200)
      expect(completed.data.type).toBe("order")
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(await serviceCharges(created.id)).toEqual([expect.objectContaining({ status: "charged" })])
      expect(await chargeRows(created.id)).toEqual([expect.objectContaining({ status: "paid" })])
      expect(lines.some((line) => line.includes("unknown outcome") && line.includes("never resending"))).toBe(true)
    })

    it.each([
      ["C026 with nothing charged", { kind: "c026", applied: false }],
      ["a time-out with nothing charged", { kind: "timeout", holdMs: 1_000, then: "drop", applied: false }],
      ["a 5xx with nothing charged", { kind: "http500", applied: false }],
    ])("%s: no order, the outcome stays open past the grace; a charge the service shows later becomes the one captured order", async (_name, faultBody) => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      const cart = await cartOf(shopper, 640)
      const { collectionId, session: first } = await savedCardSession(shopper.headers, cart.id, cardId)
      await fault(faultBody)

      const pending = await complete(cart.id)
      expect(pending.status).toBe(409)
      expect(pending.data).toMatchObject({ type: "payment_pending", payment_session_id: first.id })
      expect(pending.data.message).toMatch(/being confirmed .* Do not pay again/)
      expect(await serviceCharges(first.id)).toEqual([])
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      expect(await chargeRows(first.id)).toEqual([expect.objectContaining({ status: "unknown" })])

      // Completing again reads again and still sends nothing.
      expect((await complete(cart.id)).status).toBe(409)
      // Long past the grace the service still shows nothing: the outcome stays open, nothing is declared.
      expect(await settleSavedCardCharges(getContainer(), { force: true, now: Date.now() + AFTER_GRACE })).toBe(0)
      expect(await chargeRows(first.id)).toEqual([expect.objectContaining({ status: "unknown" })])
      expect((await complete(cart.id)).status).toBe(409)

      // The service shows the charge after all: the reconciliation turns it into the order.
      await lateCharge(cardId, first.id, 640)
      await reconcileTwPayments(getContainer(), { force: true })
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(await serviceCharges(first.id)).toEqual([expect.objectContaining({ status: "charged" })])
      expect(await chargeRows(first.id)).toEqual([expect.objectContaining({ status: "paid" })])
    })

    it("an open outcome, then the cart paid with a new session: the first session's charge shown later is refunded, one order", async () => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      const cart = await cartOf(shopper, 660)
      const { session: first } = await savedCardSession(shopper.headers, cart.id, cardId)
      await fault({ kind: "c026", applied: false })
      expect((await complete(cart.id)).status).toBe(409)
      expect(await settleSavedCardCharges(getContainer(), { force: true, now: Date.now() + AFTER_GRACE })).toBe(0)
      expect(await chargeRows(first.id)).toEqual([expect.objectContaining({ status: "unknown" })])

      // The shopper pays again with a new session (which replaces the first): one charge, one order.
      const { collectionId, session: second } = await savedCardSession(shopper.headers, cart.id, cardId)
      expect((await complete(cart.id)).data.type).toBe("order")
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(await serviceCharges(second.id)).toHaveLength(1)

      // The first charge shows up after all: its session is gone and the cart is paid, so it is refunded.
      await lateCharge(cardId, first.id, 660)
      await reconcileTwPayments(getContainer(), { force: true })
      await waitFor(async () => (await serviceCharges(first.id))[0]?.status.startsWith("refunded"), "the late charge refunded")
      expect(await chargeRows(first.id)).toEqual([expect.objectContaining({ status: "paid", code: "REFUNDED" })])
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      // Read again later: nothing more happens.
      await reconcileTwPayments(getContainer(), { force: true })
      expect(await serviceCharges(first.id)).toEqual([expect.objectContaining({ status: expect.stringMatching(/^refunded/) })])
    })

    it("a card whose token key is gone: a plain decline that names no key and no option, nothing charged", async () => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      // The token stored under a key id this store no longer has (an old key removed before the rotation).
      const [row] = await module().listTwSavedCards({ id: cardId }, { select: ["id", "token_ciphertext"] })
      await module().updateTwSavedCards({ id: cardId, token_ciphertext: row.token_ciphertext!.replace(/^run:/, "retired:"), token_key_id: "retired" })
      const cart = await cartOf(shopper, 560)
      const { session: created } = await savedCardSession(shopper.headers, cart.id, cardId)

      const expected = "Your card •••• 4242 can no longer be charged. Nothing was charged: pay with another card or another payment method."
      for (const declined of [await complete(cart.id), await complete(cart.id)]) {
        expect(declined.status).toBe(400)
        expect(declined.data.message).toBe(expected)
        expect(JSON.stringify(declined.data)).not.toMatch(/retired|tokenKeys|key/i)
      }
      expect(await serviceCharges(created.id)).toEqual([])
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      // The merchant's log says why (the key id, never a key).
      expect(lines.some((line) => line.includes(cardId) && line.includes("retired"))).toBe(true)
    })

    it("an applied charge whose read fails too: no order until the reconciliation reads it paid, then one captured order", async () => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      const cart = await cartOf(shopper, 880)
      const { collectionId, session: created } = await savedCardSession(shopper.headers, cart.id, cardId)
      await fault({ kind: "c026", applied: true })
      // The read of the order's transactions fails as well (the client retries reads, so several times).
      await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "GET /order/{orderId}/transactions", count: 10 })

      const pending = await complete(cart.id)
      expect(pending.status).toBe(409)
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      await control(env.sandbox, "DELETE", "/faults")

      await reconcileTwPayments(getContainer(), { force: true })
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(await serviceCharges(created.id)).toEqual([expect.objectContaining({ status: "charged" })])
      expect(await chargeRows(created.id)).toEqual([expect.objectContaining({ status: "paid" })])
    })

    it("two completions of one cart at once: one charge, one order", async () => {
      const shopper = await customer()
      const cardId = await savedCard(shopper)
      const cart = await cartOf(shopper, 450)
      const { collectionId, session: created } = await savedCardSession(shopper.headers, cart.id, cardId)
      // The charge's answer is held a moment, so the second completion arrives while it is under way.
      await fault({ kind: "timeout", holdMs: 1_500, then: "answer", applied: true })

      const [a, b] = await Promise.all([complete(cart.id), complete(cart.id)])
      const orders = [a, b].filter((answer) => answer.data.type === "order").map((answer) => answer.data.order.id)
      expect(orders.length).toBeGreaterThanOrEqual(1)
      expect(new Set(orders).size).toBe(1)
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(await serviceCharges(created.id)).toHaveLength(1)
      expect(await chargeRows(created.id)).toHaveLength(1)
    })

    it("a card whose charges fail: a clear decline, no order, the same session never charged again, the cart payable with another method", async () => {
      const shopper = await customer()
      const cardId = await savedCard(shopper, FAILING_CHARGES_CARD)
      const cart = await cartOf(shopper, 990)
      const { session: first } = await savedCardSession(shopper.headers, cart.id, cardId)

      const declined = await complete(cart.id)
      expect(declined.status).toBe(400)
      expect(declined.data.message).toBe(
        "Your card •••• 0019 was declined (T0001: the card details were not accepted (number, expiry or security code)). Nothing was charged: pay with another card or another payment method."
      )
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      expect(await chargeRows(first.id)).toEqual([expect.objectContaining({ status: "declined", code: "T0001" })])
      // The declined session is not charged again; a new one with the same card is (and is declined again).
      expect((await complete(cart.id)).status).toBe(400)
      expect(await serviceCharges(first.id)).toEqual([expect.objectContaining({ status: "failed" })])
      const { session: second } = await savedCardSession(shopper.headers, cart.id, cardId)
      expect((await complete(cart.id)).status).toBe(400)
      expect(await serviceCharges(second.id)).toEqual([expect.objectContaining({ status: "failed" })])

      // Another method on the same cart: the hosted page.
      const page = await session(shopper.headers, cart.id, {})
      const hosted = page.data.payment_collection.payment_sessions[0]
      await payPage(hosted.data.checkoutUrl, card(SUCCESS_CARD))
      expect((await complete(cart.id)).data.type).toBe("order")
      await expectOneCapturedOrder(getContainer(), cart.id, page.data.payment_collection.id)
    })

    describe("subscriptions on a saved card", () => {
      const productWithPlan = (plan: Record<string, unknown>) => createProductWithPlan(api, getContainer(), store, admin, plan)

      async function subscribeWithCard(shopper: { headers: Headers }, plan: { variantId: string; planId: string }, savedCardId: string) {
        const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers: shopper.headers })
        const cartId: string = created.cart.id
        await api.post(`/store/carts/${cartId}/line-items`, { variant_id: plan.variantId, quantity: 1 }, { headers: shopper.headers })
        const { data } = await api.post(`/store/carts/${cartId}/tw-subscription`, { plan_id: plan.planId, saved_card_id: savedCardId }, { headers: shopper.headers })
        return { cartId, subscriptionId: data.subscription.id as string, session: data.payment_session }
      }

      /** Completes a subscription's cart into an order; returns the subscription once active with it as its first order. */
      async function completeIntoFirstOrder(cartId: string, headers: Headers, subscriptionId: string) {
        const completed = await complete(cartId, headers)
        expect(completed.data.type).toBe("order")
        return waitFor(async () => {
          const s = await detail(subscriptionId)
          return s.status === "active" && s.first_order_id ? s : undefined
        }, "the subscription active with its first order")
      }

      const detail = async (id: string) => (await api.get(`/admin/tw-subscriptions/${id}`, { headers: admin })).data.subscription

      async function renewals(id: string) {
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "tw_subscription", fields: ["orders.id", "orders.metadata", "orders.payment_collections.payments.captured_at"], filters: { id } })
        return ((data[0] as { orders?: Array<{ id: string; metadata: Record<string, unknown> | null } | null> }).orders ?? []).filter((o) => o?.metadata?.tw_subscription_period)
      }

      // First, while the store's and the sandbox's dates agree: a later first charge.
      it("a scheduled plan with a later first charge: the schedule is created, the order awaits payment and is captured on the date", async () => {
        const shopper = await customer()
        const cardId = await savedCard(shopper)
        const plan = await productWithPlan({ title: "Quarterly", kind: "scheduled", interval_months: 3, first_charge_delay_days: 3 })
        const { cartId, subscriptionId, session: created } = await subscribeWithCard(shopper, plan, cardId)
        expect(created.data).toMatchObject({ savedCard: { id: cardId }, subscription: { id: subscriptionId, firstChargeLater: true } })
        expect(created.data.checkoutUrl).toBeUndefined()

        const completed = await complete(cartId, shopper.headers)
        expect(completed.data.type).toBe("order")
        expect(await serviceCharges(created.id)).toEqual([])
        await waitFor(async () => (await detail(subscriptionId)).status === "pending_first_charge", "the subscription waiting for its first charge")
        const awaiting = await orderOfCart(getContainer(), cartId)
        // Placed awaiting payment: the session is pending, nothing is paid.
        expect(awaiting!.payment_collections![0]!.payments ?? []).toEqual([])

        await control(env.sandbox, "POST", "/clock/advance", { seconds: 4 * DAY })
        await settle()
        await waitFor(async () => (await orderOfCart(getContainer(), cartId))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the first order captured")
        expect(await detail(subscriptionId)).toMatchObject({ status: "active", periods_charged: 1, first_order_id: awaiting!.id })
        expect(await serviceCharges(created.id)).toEqual([expect.objectContaining({ status: "charged", amount: 1200 })])
      })

      it("a monthly plan: the first period is charged at completion into the first order, then a renewal order after a month", async () => {
        const shopper = await customer()
        const cardId = await savedCard(shopper)
        const plan = await productWithPlan({ title: "Monthly", kind: "monthly" })
        const { cartId, subscriptionId, session: created } = await subscribeWithCard(shopper, plan, cardId)
        expect(created.data.checkoutUrl).toBeUndefined()

        const first = await completeIntoFirstOrder(cartId, shopper.headers, subscriptionId)
        expect(first).toMatchObject({ periods_charged: 1, service_subscription_id: expect.stringMatching(/^S/), card_last4: "4242" })
        const firstOrder = await orderOfCart(getContainer(), cartId)
        expect(firstOrder!.payment_collections![0]!.payments![0]!.captured_at).toBeTruthy()
        expect(await serviceCharges(created.id)).toEqual([expect.objectContaining({ status: "charged", origin: "tokenSubscription" })])

        await control(env.sandbox, "POST", "/clock/advance", { seconds: MONTH * DAY })
        await settle()
        const [renewal] = await waitFor(async () => {
          const orders = await renewals(subscriptionId)
          return orders.length ? orders : undefined
        }, "the renewal order")
        expect(renewal!.metadata).toMatchObject({ tw_subscription_id: subscriptionId, tw_subscription_period: 2 })
        expect(await detail(subscriptionId)).toMatchObject({ periods_charged: 2 })
        expect(await serviceCharges(created.id)).toHaveLength(2)
      })

      it("C026 on the subscription's first charge (applied): read by its order, one first order; the S number comes with the next period", async () => {
        const shopper = await customer()
        const cardId = await savedCard(shopper)
        const plan = await productWithPlan({ title: "Monthly", kind: "monthly" })
        const { cartId, subscriptionId, session: created } = await subscribeWithCard(shopper, plan, cardId)
        await control(env.sandbox, "POST", "/faults", { kind: "c026", applied: true, endpoint: "POST /token/subscriptions" })

        const first = await completeIntoFirstOrder(cartId, shopper.headers, subscriptionId)
        // The answer was lost, so the store does not know the service's S number yet.
        expect(first).toMatchObject({ periods_charged: 1, service_subscription_id: null })
        expect(await serviceCharges(created.id)).toHaveLength(1)

        await control(env.sandbox, "POST", "/clock/advance", { seconds: MONTH * DAY })
        await settle()
        await waitFor(async () => (await renewals(subscriptionId)).length === 1, "the renewal order")
        expect(await detail(subscriptionId)).toMatchObject({ periods_charged: 2, service_subscription_id: expect.stringMatching(/^S/) })
        expect(await serviceCharges(created.id)).toHaveLength(2)
      })

      it("refuses another customer's card for a subscription", async () => {
        const owner = await customer()
        const other = await customer()
        const cardId = await savedCard(owner)
        const plan = await productWithPlan({ title: "Monthly", kind: "monthly" })
        const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers: other.headers })
        await api.post(`/store/carts/${created.cart.id}/line-items`, { variant_id: plan.variantId, quantity: 1 }, { headers: other.headers })
        const refused = await api
          .post(`/store/carts/${created.cart.id}/tw-subscription`, { plan_id: plan.planId, saved_card_id: cardId }, { headers: other.headers })
          .catch(rejected)
        expect(refused.status).toBe(400)
        expect(refused.data.message).toBe(`Saved card ${cardId} is not an active saved card of this customer.`)
      })
    })
  },
})
