import { randomBytes } from "node:crypto"
import type { AccountHolderDTO, IPaymentModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  authorizePaymentSessionStep,
  capturePaymentStep,
  capturePaymentWorkflow,
  completeCartWorkflow,
  createCartWorkflow,
  createPaymentCollectionForCartWorkflow,
  createPaymentCollectionsStep,
  createPaymentSessionsWorkflow,
} from "@medusajs/medusa/core-flows"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../src/modules/tw-saved-card"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import { settleSavedCardCharges } from "../../src/reconciliation/settle-saved-card-charges"
import { hostedApi } from "../../src/providers/plugin-hosted-api"
import { card, control, createCart, expectOneCapturedOrder, orderOfCart, payPage, paymentsOf, PROVIDER_ID, PROVIDER_KEY, seedStore, type Store, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
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
/** Past the grace after which a charge the service never shows counts as not made. */
const AFTER_GRACE = 3 * 60_000

type Headers = Record<string, string>

interface RenewalInput {
  customer_id: string
  amount: number
  payment_method: string
}

/**
 * A subscription tool's renewal as Medusa's recipe (medusajs/examples,
 * `create-subscription-order`) pays it, with the plugin's provider instead
 * of Stripe's: a payment collection of its own (no cart), a session with
 * `{ payment_method, off_session: true, confirm: true, capture_method: "automatic" }`
 * for the customer, authorized with the session's context, then captured.
 */
const recipeRenewalWorkflow = createWorkflow("test-tw-recipe-renewal", (input: RenewalInput) => {
  const collections = createPaymentCollectionsStep(transform({ input }, ({ input }) => [{ currency_code: "twd", amount: input.amount }]))
  const session = createPaymentSessionsWorkflow.runAsStep({
    input: transform({ input, collections }, ({ input, collections }) => ({
      payment_collection_id: collections[0].id,
      provider_id: PROVIDER_ID,
      customer_id: input.customer_id,
      data: { payment_method: input.payment_method, off_session: true, confirm: true, capture_method: "automatic" },
    })),
  })
  const payment = authorizePaymentSessionStep({ id: session.id, context: session.context })
  capturePaymentStep(transform({ payment }, ({ payment }) => ({ payment_id: payment!.id, amount: payment!.amount })))
  return new WorkflowResponse({ collection_id: transform({ collections }, ({ collections }) => collections[0].id), session_id: session.id, payment_id: transform({ payment }, ({ payment }) => payment!.id) })
})

/**
 * Saved cards through Medusa's own subscription tools: the recipe's renewal
 * (list the customer's payment methods through the payment module, a session
 * with `payment_method` + `off_session`, authorize, capture; no cart, no
 * storefront completion) against the real app, PostgreSQL and the sandbox
 * over HTTP. The provider's authorization charges the card once through the
 * plugin's `charge-tw-saved-card`, with the completion's rules. Every log line,
 * API answer and stored session or payment is searched for the card tokens.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
    })
    const { lines } = expectNoTokenLeaks(api, getContainer, env, TOKEN_KEY)

    const payments = () => getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT)
    const savedCards = () => getContainer().resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
    const chargeRows = (sessionId: string) => savedCards().listTwSavedCardCharges({ payment_session_id: sessionId })
    const chargeRowsOfCard = (savedCardId: string) => savedCards().listTwSavedCardCharges({ saved_card_id: savedCardId })
    const fault = (body: Record<string, unknown>) => control(env.sandbox, "POST", "/faults", { endpoint: "POST /token/transactions", ...body })

    /** The service's transactions of one `orderId` (a saved card's charges carry the session id). */
    async function serviceCharges(sessionId: string) {
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${sessionId}`)
      return transactions as Array<{ id: string; status: string; amount: number; origin: string }>
    }

    /** Every token charge the service holds, whatever its order. */
    async function allTokenCharges() {
      const { transactions } = await control(env.sandbox, "GET", "/transactions")
      return (transactions as Array<{ origin: string }>).filter((tx) => tx.origin === "tokenCharge")
    }

    /** A charge the service shows under the session's `orderId` that the store's own call did not report (an unknown outcome). */
    async function lateCharge(savedCardId: string, sessionId: string, amount: number) {
      const { notifications } = await control(env.sandbox, "GET", "/notifications?purpose=token")
      const token = (notifications as Array<{ body: { token?: string; customId?: string } }>).find((n) => n.body.customId === savedCardId)?.body.token
      expect(token).toBeTruthy()
      const hosted = hostedApi(getContainer(), PROVIDER_KEY)
      await hosted.client.tokenCharges.create({ merchantId: hosted.options.merchantId, amount, currency: "TWD", orderId: sessionId, productDetails: [hosted.productLine(amount)], token: token! })
    }

    let customers = 0
    async function customer(): Promise<{ headers: Headers; id: string }> {
      const email = `renewer${++customers}-${randomBytes(3).toString("hex")}@example.test`
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      const { data } = await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { headers: { ...store.headers, authorization: `Bearer ${login.token}` }, id: data.customer.id }
    }

    /** The customer's account holder of the hosted provider, as a subscription tool finds it (`customer.account_holders`). */
    async function holderOf(customerId: string): Promise<AccountHolderDTO | undefined> {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "customer", fields: ["id", "account_holders.*"], filters: { id: customerId } })
      return ((data[0] as { account_holders?: Array<AccountHolderDTO | null> }).account_holders ?? []).find((h): h is AccountHolderDTO => h?.provider_id === PROVIDER_ID)
    }

    /** Binds a card as the storefront does (route + binding page); waits until the account holder lists it. */
    async function bindCard(shopper: { headers: Headers; id: string }, number = SUCCESS_CARD): Promise<string> {
      const { data } = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers })
      await payPage(data.checkout_url, card(number))
      const id: string = data.saved_card.id
      await waitFor(async () => (await listedMethods(shopper.id)).some((m) => m.id === id), `card ${id} among the holder's payment methods`)
      return id
    }

    /** The recipe's first step: the customer's payment methods, through the payment module. */
    async function listedMethods(customerId: string) {
      const holder = await holderOf(customerId)
      return holder ? payments().listPaymentMethods({ provider_id: PROVIDER_ID, context: { account_holder: holder } }) : []
    }

    /** The recipe's session on a collection of its own, step by step: the collection and the session, not authorized yet. */
    async function renewalSession(customerId: string, paymentMethod: string, amount: number) {
      const [collection] = await payments().createPaymentCollections([{ currency_code: "twd", amount }])
      const { result: session } = await createPaymentSessionsWorkflow(getContainer()).run({
        input: {
          payment_collection_id: collection.id,
          provider_id: PROVIDER_ID,
          customer_id: customerId,
          data: { payment_method: paymentMethod, off_session: true, confirm: true, capture_method: "automatic" },
        },
      })
      return { collectionId: collection.id, session }
    }

    /** The recipe's authorization (`authorizePaymentSessionStep`): with the session's context, null while pending. */
    const authorize = (session: { id: string; context?: Record<string, unknown> | null }) => payments().authorizePaymentSession(session.id, (session.context ?? {}) as never)

    /** What Medusa holds captured for a collection: its payments and their captures. */
    async function captured(collectionId: string) {
      const list = await paymentsOf(getContainer(), collectionId)
      const total = list.flatMap((p) => p.captures ?? []).reduce((sum, c) => sum + Number(c.amount), 0)
      return { payments: list, total }
    }

    it("renews as Medusa's recipe does: listed method, off-session session, authorize, capture; one token charge, captured as the service charged it", async () => {
      const shopper = await customer()
      const cardId = await bindCard(shopper)

      // As the recipe's getPaymentMethodStep: the holder's payment methods are the saved cards, by their ids.
      const methods = await listedMethods(shopper.id)
      expect(methods).toEqual([{ id: cardId, provider_id: PROVIDER_ID, data: expect.objectContaining({ id: cardId, last4: "4242" }) }])

      const { result } = await recipeRenewalWorkflow(getContainer()).run({ input: { customer_id: shopper.id, amount: 1280, payment_method: methods[0].id } })

      // Exactly one token charge, under the renewal session's id, and one charge row for it.
      const charges = await serviceCharges(result.session_id)
      expect(charges).toEqual([expect.objectContaining({ status: "charged", amount: 1280, origin: "tokenCharge" })])
      expect(await chargeRows(result.session_id)).toEqual([expect.objectContaining({ status: "paid", saved_card_id: cardId, amount: 1280 })])

      // Medusa holds one payment of the collection, captured for what the service charged.
      const money = await captured(result.collection_id)
      expect(money.payments).toHaveLength(1)
      expect(money.payments[0].id).toBe(result.payment_id)
      expect(money.payments[0].captured_at).toBeTruthy()
      expect(money.total).toBe(charges[0].amount)
      expect(money.payments[0].data).toMatchObject({ savedCard: { id: cardId, last4: "4242" }, offSession: true, transactionId: charges[0].id, status: "charged" })
      const [session] = await payments().listPaymentSessions({ id: result.session_id })
      expect(session.status).toBe("authorized")

      // Authorized again (a retried step, a second tool): the same payment, no second charge.
      const again = await payments().authorizePaymentSession(result.session_id, {})
      expect(again?.id).toBe(result.payment_id)
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: result.payment_id } })
      expect(await serviceCharges(result.session_id)).toHaveLength(1)
      expect((await captured(result.collection_id)).total).toBe(1280)

      // The next period is a new session: its own single charge.
      const next = await recipeRenewalWorkflow(getContainer()).run({ input: { customer_id: shopper.id, amount: 1280, payment_method: cardId } })
      expect(await serviceCharges(next.result.session_id)).toEqual([expect.objectContaining({ status: "charged", amount: 1280 })])
      expect(await allTokenCharges()).toHaveLength(2)
      expect(lines.some((line) => line.includes(`saved card ${cardId} charged 1280 TWD`) && line.includes(result.session_id))).toBe(true)
    })

    it("refuses another customer's payment method: no session, nothing charged, through the recipe and through the store API", async () => {
      const owner = await customer()
      const other = await customer()
      const cardId = await bindCard(owner)
      await bindCard(other)

      const refused = await recipeRenewalWorkflow(getContainer())
        .run({ input: { customer_id: other.id, amount: 900, payment_method: cardId } })
        .then(
          () => undefined,
          (error: Error) => error
        )
      expect(refused?.message).toBe(`Saved card ${cardId} is not an active saved card of this customer.`)
      expect(refused).toMatchObject({ type: "not_allowed", code: "saved_card_not_yours" })

      // A customer's own holder passed by hand changes nothing: the session's context is the customer's.
      const [collection] = await payments().createPaymentCollections([{ currency_code: "twd", amount: 900 }])
      const byHand = await createPaymentSessionsWorkflow(getContainer())
        .run({
          input: { payment_collection_id: collection.id, provider_id: PROVIDER_ID, customer_id: other.id, data: { payment_method: cardId, off_session: true }, context: { account_holder: await holderOf(owner.id) } as never },
        })
        .then(
          () => undefined,
          (error: Error) => error
        )
      expect(byHand?.message).toBe(`Saved card ${cardId} is not an active saved card of this customer.`)

      // The store API takes the recipe's key with the same checks as savedCardId.
      const { data: created } = await api.post("/store/carts", { region_id: store.regionId }, { headers: other.headers })
      const { data: storeCollection } = await api.post("/store/payment-collections", { cart_id: created.cart.id }, { headers: store.headers })
      const viaStore = await api
        .post(`/store/payment-collections/${storeCollection.payment_collection.id}/payment-sessions`, { provider_id: PROVIDER_ID, data: { payment_method: cardId, off_session: true } }, { headers: other.headers })
        .catch((error: { response: { status: number; data: { message: string; code?: string } } }) => error.response)
      expect(viaStore.status).toBe(400)
      expect(viaStore.data).toMatchObject({ message: `Saved card ${cardId} is not an active saved card of this customer.`, code: "saved_card_not_yours" })
      const stripeLike = await api
        .post(`/store/payment-collections/${storeCollection.payment_collection.id}/payment-sessions`, { provider_id: PROVIDER_ID, data: { payment_method: "pm_1234", off_session: true } }, { headers: other.headers })
        .catch((error: { response: { status: number; data: { message: string } } }) => error.response)
      expect(stripeLike.status).toBe(400)
      expect(stripeLike.data.message).toBe("Invalid payment session data (payment_method: must be a saved card id (twcard_…))")

      // Nothing exists and nothing was charged.
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["id"] })
      expect(sessions).toEqual([])
      expect(await chargeRowsOfCard(cardId)).toEqual([])
      expect(await allTokenCharges()).toEqual([])
    })

    it("refuses, at the session's creation, a card passed with another customer's account holder through the payment module", async () => {
      const owner = await customer()
      const other = await customer()
      const cardId = await bindCard(owner)
      const [collection] = await payments().createPaymentCollections([{ currency_code: "twd", amount: 820 }])

      const refused = await payments()
        .createPaymentSession(collection.id, {
          provider_id: PROVIDER_ID,
          amount: 820,
          currency_code: "twd",
          data: { payment_method: cardId, off_session: true },
          context: { customer: { id: other.id, email: "other@example.test" }, account_holder: (await holderOf(owner.id)) as never },
        })
        .then(
          () => undefined,
          (error: Error) => error
        )
      expect(refused).toMatchObject({ message: `Saved card ${cardId} is not an active saved card of this customer.`, code: "saved_card_not_yours" })
      expect(await payments().listPaymentSessions({ payment_collection_id: collection.id })).toEqual([])
      expect(await allTokenCharges()).toEqual([])
    })

    it("two authorizations of one session at once: one charge and one payment; the other caller gets that payment or a clear conflict", async () => {
      const shopper = await customer()
      const cardId = await bindCard(shopper)
      const { collectionId, session } = await renewalSession(shopper.id, cardId, 760)

      const outcomes = await Promise.allSettled([authorize(session), authorize(session)])
      const money = await captured(collectionId)
      expect(money.payments).toHaveLength(1)
      expect(money.total).toBe(760)
      expect(await serviceCharges(session.id)).toEqual([expect.objectContaining({ status: "charged", amount: 760 })])
      for (const outcome of outcomes) {
        if (outcome.status === "fulfilled") {
          expect(outcome.value?.id).toBe(money.payments[0].id)
        } else {
          expect(outcome.reason).toMatchObject({ type: "conflict", code: "payment_pending" })
          expect((outcome.reason as Error).message).toMatch(/being recorded by another authorization of this session/)
        }
      }
      expect(outcomes.some((outcome) => outcome.status === "fulfilled")).toBe(true)
    })

    it("an unknown outcome stays open (pending authorization), a second authorization only reads, the reconciliation settles it into the captured payment", async () => {
      const shopper = await customer()
      const cardId = await bindCard(shopper)
      const { collectionId, session } = await renewalSession(shopper.id, cardId, 640)
      expect(session.data).toMatchObject({ savedCard: { id: cardId, last4: "4242" }, offSession: true, amount: 640 })
      expect(session.data.transactionId).toBeUndefined()
      await fault({ kind: "c026", applied: false })

      // The recipe's authorizePaymentSessionStep gets null: no payment yet, the session awaits its outcome.
      expect(await authorize(session)).toBeNull()
      const [pending] = await payments().listPaymentSessions({ id: session.id })
      expect(pending.status).toBe("pending_authorization")
      expect(await chargeRows(session.id)).toEqual([expect.objectContaining({ status: "unknown" })])
      expect(await serviceCharges(session.id)).toEqual([])
      expect(lines.some((line) => line.includes("unknown outcome") && line.includes("never resending"))).toBe(true)

      // Authorized again: the charge is read, never sent again.
      expect(await authorize(session)).toBeNull()
      expect(await chargeRows(session.id)).toHaveLength(1)
      expect(await allTokenCharges()).toEqual([])
      // Long past the grace the service still shows nothing: still open, nothing declared.
      expect(await settleSavedCardCharges(getContainer(), { force: true, now: Date.now() + AFTER_GRACE })).toBe(0)
      expect(await chargeRows(session.id)).toEqual([expect.objectContaining({ status: "unknown" })])
      expect((await captured(collectionId)).payments).toEqual([])

      // The service shows the charge after all: the reconciliation records it as the session's captured payment.
      await lateCharge(cardId, session.id, 640)
      await reconcileTwPayments(getContainer(), { force: true })
      const money = await waitFor(async () => {
        const found = await captured(collectionId)
        return found.total ? found : undefined
      }, "the settled charge captured")
      const charges = await serviceCharges(session.id)
      expect(charges).toEqual([expect.objectContaining({ status: "charged", amount: 640 })])
      expect(money.payments).toHaveLength(1)
      expect(money.total).toBe(charges[0].amount)
      expect(money.payments[0].data).toMatchObject({ transactionId: charges[0].id })
      expect(await chargeRows(session.id)).toEqual([expect.objectContaining({ status: "paid" })])

      // The tool's capture changes nothing; authorizing again returns the payment.
      await capturePaymentWorkflow(getContainer()).run({ input: { payment_id: money.payments[0].id } })
      expect((await authorize(session))?.id).toBe(money.payments[0].id)
      expect((await captured(collectionId)).total).toBe(640)
      expect(await allTokenCharges()).toHaveLength(1)
    })

    it("an applied charge whose answer is lost: the authorization reads it by its order, one charge, captured", async () => {
      const shopper = await customer()
      const cardId = await bindCard(shopper)
      const { collectionId, session } = await renewalSession(shopper.id, cardId, 700)
      await fault({ kind: "c026", applied: true })

      const payment = await authorize(session)
      expect(payment?.captured_at).toBeTruthy()
      const charges = await serviceCharges(session.id)
      expect(charges).toEqual([expect.objectContaining({ status: "charged", amount: 700 })])
      expect((await captured(collectionId)).total).toBe(700)
      expect(await chargeRows(session.id)).toEqual([expect.objectContaining({ status: "paid" })])
    })

    it("a tool that completes a cart itself (completeCartWorkflow): charged once inside the completion; a cart of someone else is refused, nothing charged", async () => {
      const shopper = await customer()
      const cardId = await bindCard(shopper)
      /** A cart with its payment collection, and the recipe's off-session session on it for the shopper. */
      async function cartWithRenewalSession(cart: { id: string }) {
        await createPaymentCollectionForCartWorkflow(getContainer()).run({ input: { cart_id: cart.id } })
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({ entity: "cart", fields: ["payment_collection.id"], filters: { id: cart.id } })
        const collectionId = (data[0] as { payment_collection: { id: string } }).payment_collection.id
        const { result: session } = await createPaymentSessionsWorkflow(getContainer()).run({
          input: { payment_collection_id: collectionId, provider_id: PROVIDER_ID, customer_id: shopper.id, data: { payment_method: cardId, off_session: true } },
        })
        return { collectionId, session }
      }

      // The shopper's own cart (the recipe's "clone the cart, complete it" option): core's completion holds the cart's lock
      // and authorizes; the provider's charge takes only the charge's own lock.
      const { result: own } = await createCartWorkflow(getContainer()).run({
        input: { region_id: store.regionId, sales_channel_id: store.salesChannelId, currency_code: "twd", customer_id: shopper.id, items: [{ title: "Oolong tea", unit_price: 560, quantity: 1, requires_shipping: false }] },
      })
      const { collectionId, session } = await cartWithRenewalSession(own)
      await completeCartWorkflow(getContainer()).run({ input: { id: own.id } })
      await expectOneCapturedOrder(getContainer(), own.id, collectionId)
      expect(await serviceCharges(session.id)).toEqual([expect.objectContaining({ status: "charged", amount: 560 })])

      // A guest's cart: the card's customer is not the cart's, the completion fails and charges nothing.
      const guestCart = await createCart(getContainer(), store, 430)
      const guest = await cartWithRenewalSession(guestCart)
      const refused = await completeCartWorkflow(getContainer())
        .run({ input: { id: guestCart.id } })
        .then(
          () => undefined,
          (error: Error) => error
        )
      expect(refused?.message).toBe("The saved card chosen for this cart is not of the cart's customer. Nothing was charged: choose a payment method again.")
      expect(await orderOfCart(getContainer(), guestCart.id)).toBeUndefined()
      expect(await serviceCharges(guest.session.id)).toEqual([])
      expect(await chargeRows(guest.session.id)).toEqual([])
      expect(await allTokenCharges()).toHaveLength(1)
    })

    it("a declined card: a clear error with its code, no payment, the session never charged again", async () => {
      const shopper = await customer()
      const cardId = await bindCard(shopper, FAILING_CHARGES_CARD)
      const { collectionId, session } = await renewalSession(shopper.id, cardId, 990)

      const expected = "Your card •••• 0019 was declined (T0001: the card details were not accepted (number, expiry or security code)). Nothing was charged: pay with another card or another payment method."
      for (let attempt = 0; attempt < 2; attempt++) {
        const declined = await authorize(session).then(
          () => undefined,
          (error: Error) => error
        )
        expect(declined).toMatchObject({ message: expected, type: "not_allowed", code: "card_declined_t0001" })
      }
      expect(await serviceCharges(session.id)).toEqual([expect.objectContaining({ status: "failed" })])
      expect(await chargeRows(session.id)).toEqual([expect.objectContaining({ status: "declined", code: "T0001" })])
      expect((await captured(collectionId)).payments).toEqual([])
    })
  },
})
