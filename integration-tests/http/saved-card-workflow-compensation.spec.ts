import { randomBytes } from "node:crypto"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createCartWorkflow } from "@medusajs/medusa/core-flows"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../src/modules/tw-saved-card"
import { bindTwCardWorkflow, type SavedCardAdded } from "../../src/workflows/saved-cards/bind-tw-card"
import { savedCardChargeLockKey } from "../../src/saved-cards/charge-rows"
import { settleSavedCardCharges } from "../../src/reconciliation/settle-saved-card-charges"
import { hostedApi } from "../../src/providers/plugin-hosted-api"
import { keepAnswersAndLogs } from "../helpers/answers-and-logs"
import { card, control, expectOneCapturedOrder, HOOK_PATH, orderOfCart, payPage, PROVIDER_ID, PROVIDER_KEY, seedStore, settle, type Store, SUCCESS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)
// The reconciliation runs only when a test calls it.
process.env.TW_RECONCILIATION = "off"
const TOKEN_KEY = randomBytes(32).toString("base64")
process.env.TW_CARD_TOKEN_KEYS = `run:${TOKEN_KEY}`
const env = useSandbox()

type Headers = Record<string, string>
type Answer = { status: number; data: Record<string, unknown> & { message?: string } }
const rejected = (error: { response?: Answer }) => {
  if (!error.response) {
    throw error
  }
  return error.response
}

/** What the merchant's `savedCardAdded` handler was given; `failHook` makes the next one throw. */
const added: SavedCardAdded[] = []
let failHook = false

/**
 * The saved-card workflows (`charge-tw-saved-card`, `settle-tw-saved-card-charge`,
 * `start-tw-card-binding`, `bind-tw-card`, `delete-tw-saved-card`), each failed
 * half-way on purpose (a module call made to throw, a merchant's hook that
 * throws): the compensations leave no trace of the steps that had run (no
 * half-made saved card, no orphan charge row, no claim or lock held, the
 * session and the account holder as they were); a charge already sent stays
 * on record, open, and is never sent again. Then a clean run succeeds. The
 * `savedCardAdded` hook fires with the card's facts and never its token.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    const { lines, watchLogs, unwatchLogs } = keepAnswersAndLogs(api, getContainer)
    beforeAll(() => {
      // One handler, as a project's src/workflows/hooks file would register it.
      bindTwCardWorkflow.hooks.savedCardAdded(async (payload) => {
        if (failHook) {
          failHook = false
          throw new Error("forced: the merchant's hook failed")
        }
        added.push(payload)
      })
    })
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      added.length = 0
      lines.length = 0
      watchLogs()
    })
    afterEach(async () => {
      jest.restoreAllMocks()
      failHook = false
      await control(env.sandbox, "DELETE", "/faults")
      await settle()
      unwatchLogs()
    })

    const module = () => getContainer().resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
    const payments = () => getContainer().resolve<IPaymentModuleService>(Modules.PAYMENT)
    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const pg = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const chargeRows = (sessionId: string) => module().listTwSavedCardCharges({ payment_session_id: sessionId }, { withDeleted: true })

    async function customer(): Promise<{ headers: Headers; id: string }> {
      const email = `undo-${randomBytes(4).toString("hex")}@example.test`
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      const { data } = await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { headers: { ...store.headers, authorization: `Bearer ${login.token}` }, id: data.customer.id }
    }

    /** A card bound on the sandbox's binding page (its token is one the service charges). */
    async function pageBoundCard(shopper: { headers: Headers }): Promise<string> {
      const { data } = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers })
      await payPage(data.checkout_url, card(SUCCESS_CARD))
      const id: string = data.saved_card.id
      await waitFor(async () => (await module().listTwSavedCards({ id, status: "active" })).length > 0, `card ${id} active`)
      await settle()
      return id
    }

    /** A binding started through the route, and the `token` notification its page would send, with a token of the test's own. */
    async function waitingBinding(shopper: { headers: Headers }) {
      const { data } = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers })
      const id: string = data.saved_card.id
      const [row] = await module().listTwSavedCards({ id })
      const token = `tok_undo_${randomBytes(8).toString("hex")}`
      const notification = { purpose: "token", id: row.binding_id, transactionId: row.binding_id, merchantId: env.sandbox.defaultMerchant.merchantId, success: true, token, paymentInfo: "4242", customId: id }
      return { id, token, notification }
    }
    const deliver = (notification: Record<string, unknown>) => api.post(HOOK_PATH, notification).catch(rejected)

    async function cardRow(id: string) {
      const { rows } = await pg().raw("select status, token_ciphertext, token_key_id, last4, bound_at, deleted_at from tw_saved_card where id = ?", [id])
      return rows[0] as { status: string; token_ciphertext: string | null; token_key_id: string | null; last4: string | null; bound_at: Date | null; deleted_at: Date | null }
    }

    /** The customer's account holders of the provider, and the links to them (a link to a deleted holder would not show through Query). */
    async function holders(customerId: string) {
      const { data } = await query().graph({ entity: "account_holder", fields: ["id", "data"], filters: { provider_id: PROVIDER_ID, external_id: customerId } })
      const links = await pg()("customer_account_holder").where({ customer_id: customerId }).whereNull("deleted_at").select("account_holder_id")
      return { holders: data as Array<{ id: string; data: Record<string, unknown> }>, links }
    }

    /** Neither lock of a completion's charge is still held: both can be taken at once. */
    async function expectUnlocked(...keys: string[]) {
      const locking = getContainer().resolve(Modules.LOCKING)
      const ownerId = `test-${randomBytes(4).toString("hex")}`
      await locking.acquire(keys, { ownerId, expire: 5 })
      await locking.release(keys, { ownerId })
    }

    async function cartWithSavedCardSession(shopper: { headers: Headers; id: string }, savedCardId: string, amount: number) {
      const { result: cart } = await createCartWorkflow(getContainer()).run({
        input: {
          region_id: store.regionId,
          sales_channel_id: store.salesChannelId,
          currency_code: "twd",
          customer_id: shopper.id,
          items: [{ title: "Oolong tea", unit_price: amount, quantity: 1, requires_shipping: false }],
        },
      })
      const { data: collection } = await api.post("/store/payment-collections", { cart_id: cart.id }, { headers: store.headers })
      const { data } = await api.post(
        `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`,
        { provider_id: PROVIDER_ID, data: { savedCardId } },
        { headers: shopper.headers }
      )
      const session = data.payment_collection.payment_sessions.find((s: { provider_id: string }) => s.provider_id === PROVIDER_ID)
      return { cartId: cart.id, collectionId: collection.payment_collection.id as string, sessionId: session.id as string }
    }
    const complete = (cartId: string): Promise<Answer> => api.post(`/store/carts/${cartId}/complete`, {}, { headers: store.headers }).catch(rejected)
    const sessionData = async (sessionId: string) => (await payments().retrievePaymentSession(sessionId, { select: ["id", "data"] })).data
    async function serviceCharges(sessionId: string) {
      const { transactions } = await control(env.sandbox, "GET", `/transactions?orderId=${sessionId}`)
      return transactions as Array<{ id: string; status: string }>
    }

    describe("charge-tw-saved-card", () => {
      it("nothing sent yet (the card cannot be used) and recording that fails: no charge row is left, the locks are free; then the completion charges once", async () => {
        const shopper = await customer()
        const cardId = await pageBoundCard(shopper)
        const { cartId, collectionId, sessionId } = await cartWithSavedCardSession(shopper, cardId, 880)

        jest.spyOn(module(), "revealToken").mockRejectedValueOnce(new Error("forced: the token did not open"))
        jest.spyOn(module(), "updateTwSavedCardCharges").mockRejectedValueOnce(new Error("forced: the database went away"))
        const failed = await complete(cartId)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await chargeRows(sessionId)).toEqual([])
        expect(await serviceCharges(sessionId)).toEqual([])
        expect(await sessionData(sessionId)).not.toHaveProperty("transactionId")
        expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
        await expectUnlocked(cartId, savedCardChargeLockKey(sessionId))

        jest.restoreAllMocks()
        const completed = await complete(cartId)
        expect(completed.data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cartId, collectionId)
        expect(await serviceCharges(sessionId)).toEqual([expect.objectContaining({ status: "charged" })])
        expect(await chargeRows(sessionId)).toEqual([expect.objectContaining({ status: "paid" })])
      })

      it("a step after the send fails (writing the paid charge into the session): the session is as it was, the sent charge stays on record, open, never resent; the next completion reads it into one order", async () => {
        const shopper = await customer()
        const cardId = await pageBoundCard(shopper)
        const { cartId, collectionId, sessionId } = await cartWithSavedCardSession(shopper, cardId, 990)

        const paymentModule = payments()
        const update = paymentModule.updatePaymentSession.bind(paymentModule)
        let forced = 0
        jest.spyOn(paymentModule, "updatePaymentSession").mockImplementation(((data: { data?: Record<string, unknown> }) => {
          if (data?.data?.attestation && forced++ === 0) {
            return Promise.reject(new Error("forced: the database went away"))
          }
          return update(data as never)
        }) as never)
        const failed = await complete(cartId)
        expect(forced).toBe(1)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await sessionData(sessionId)).not.toHaveProperty("transactionId")
        expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
        // The charge was made: its row stays, open (a read settles it), so the session is never charged again.
        expect(await serviceCharges(sessionId)).toEqual([expect.objectContaining({ status: "charged" })])
        expect(await chargeRows(sessionId)).toEqual([expect.objectContaining({ status: "unknown", code: "UNRECORDED" })])
        await expectUnlocked(cartId, savedCardChargeLockKey(sessionId))

        jest.restoreAllMocks()
        const completed = await complete(cartId)
        expect(completed.data.type).toBe("order")
        await expectOneCapturedOrder(getContainer(), cartId, collectionId)
        expect(await serviceCharges(sessionId)).toHaveLength(1)
        expect(await chargeRows(sessionId)).toEqual([expect.objectContaining({ status: "paid" })])
      })
    })

    describe("settle-tw-saved-card-charge", () => {
      it("recording the settled charge fails: the session and the row are put back, the lock is free; the next run places the one order", async () => {
        const shopper = await customer()
        const cardId = await pageBoundCard(shopper)
        const { cartId, collectionId, sessionId } = await cartWithSavedCardSession(shopper, cardId, 640)
        await control(env.sandbox, "POST", "/faults", { endpoint: "POST /token/transactions", kind: "c026", applied: false })
        expect((await complete(cartId)).status).toBe(409)
        expect(await chargeRows(sessionId)).toEqual([expect.objectContaining({ status: "unknown" })])

        // The service shows the charge after all (made with the card's token, as the service had it).
        const { notifications } = await control(env.sandbox, "GET", "/notifications?purpose=token")
        const token = (notifications as Array<{ body: { token?: string; customId?: string } }>).find((n) => n.body.customId === cardId)?.body.token
        const hosted = hostedApi(getContainer(), PROVIDER_KEY)
        await hosted.client.tokenCharges.create({ merchantId: hosted.options.merchantId, amount: 640, currency: "TWD", orderId: sessionId, productDetails: [hosted.productLine(640)], token: token! })

        jest.spyOn(module(), "updateTwSavedCardCharges").mockRejectedValueOnce(new Error("forced: the database went away"))
        expect(await settleSavedCardCharges(getContainer(), { force: true })).toBe(0)
        expect(await chargeRows(sessionId)).toEqual([expect.objectContaining({ status: "unknown" })])
        // The payment module merges session data: what the settling wrote is cleared, so the session claims no charge.
        expect(await sessionData(sessionId)).toMatchObject({ transactionId: null, attestation: null })
        expect(await orderOfCart(getContainer(), cartId)).toBeUndefined()
        expect(lines.some((line) => line.includes(`settling the charge of session ${sessionId} failed`))).toBe(true)
        await expectUnlocked(savedCardChargeLockKey(sessionId))

        jest.restoreAllMocks()
        expect(await settleSavedCardCharges(getContainer(), { force: true })).toBe(1)
        await expectOneCapturedOrder(getContainer(), cartId, collectionId)
        expect(await chargeRows(sessionId)).toEqual([expect.objectContaining({ status: "paid" })])
        expect(await serviceCharges(sessionId)).toHaveLength(1)
      })
    })

    describe("start-tw-card-binding", () => {
      it("recording the binding page on the card fails: no card and no link are left; then the binding starts", async () => {
        const shopper = await customer()
        const cards = module()
        const update = cards.updateTwSavedCards.bind(cards)
        jest.spyOn(cards, "updateTwSavedCards").mockImplementation(((data: { binding_id?: string }) =>
          data?.binding_id ? Promise.reject(new Error("forced: the database went away")) : update(data as never)) as never)

        const failed = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await cards.listTwSavedCards({ customer_id: shopper.id }, { withDeleted: true })).toEqual([])
        const links = await pg()("customer_customer_tw_saved_card_tw_saved_card").where({ customer_id: shopper.id }).whereNull("deleted_at").select("tw_saved_card_id")
        expect(links).toEqual([])

        jest.restoreAllMocks()
        const { data } = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers })
        expect(data).toMatchObject({ saved_card: { status: "binding" }, checkout_url: expect.any(String) })
        const { data: listed } = await api.get("/store/customers/me/tw-saved-cards", { headers: shopper.headers })
        expect(listed.saved_cards.map((c: { id: string }) => c.id)).toEqual([data.saved_card.id])
      })
    })

    describe("bind-tw-card", () => {
      it("the account holder's mirror fails: the card waits for its token again with none stored, no holder is left, the claim is given back; the resend binds it", async () => {
        const shopper = await customer()
        const { id, token, notification } = await waitingBinding(shopper)
        jest.spyOn(payments(), "updateAccountHolder").mockRejectedValueOnce(new Error("forced: the holder could not be written"))

        expect((await deliver(notification)).status).toBe(500)
        expect(await cardRow(id)).toMatchObject({ status: "binding", token_ciphertext: null, token_key_id: null, last4: null, bound_at: null })
        expect(await holders(shopper.id)).toEqual({ holders: [], links: [] })
        expect(added).toEqual([])

        jest.restoreAllMocks()
        // The service's resend is taken: the claim was given back.
        expect((await deliver(notification)).status).toBe(200)
        expect(await cardRow(id)).toMatchObject({ status: "active", token_key_id: "run", last4: "4242" })
        expect(await module().revealToken(id, shopper.id)).toBe(token)
        const mirrored = await holders(shopper.id)
        expect(mirrored.holders).toEqual([{ id: expect.any(String), data: { tw_saved_cards: [expect.objectContaining({ id, last4: "4242" })] } }])
        expect(mirrored.links).toEqual([{ account_holder_id: mirrored.holders[0].id }])
        expect(added).toHaveLength(1)
        // A third copy is a repeat: nothing changes, the hook does not fire again.
        expect((await deliver(notification)).status).toBe(200)
        expect(added).toHaveLength(1)
      })

      it("savedCardAdded gets the card's facts and never its token; a handler that throws undoes the binding and the mirror, and the resend binds it", async () => {
        const shopper = await customer()
        const first = await waitingBinding(shopper)
        expect((await deliver(first.notification)).status).toBe(200)
        const stored = await cardRow(first.id)
        expect(added).toEqual([{ customer_id: shopper.id, saved_card_id: first.id, provider_id: PROVIDER_ID, last4: "4242", card_label: null }])

        // A second card, whose hook handler fails: the card and the holder's mirror are as before.
        failHook = true
        const second = await waitingBinding(shopper)
        expect((await deliver(second.notification)).status).toBe(500)
        expect(await cardRow(second.id)).toMatchObject({ status: "binding", token_ciphertext: null })
        expect((await holders(shopper.id)).holders[0].data).toEqual({ tw_saved_cards: [expect.objectContaining({ id: first.id })] })
        expect((await deliver(second.notification)).status).toBe(200)
        expect(await cardRow(second.id)).toMatchObject({ status: "active" })
        expect(added.map((payload) => payload.saved_card_id)).toEqual([first.id, second.id])

        // No token, no ciphertext and no key in a payload, a log line or a stored workflow execution.
        const secrets = [first.token, second.token, String(stored.token_ciphertext), TOKEN_KEY]
        const executions = JSON.stringify((await pg().raw("select * from workflow_execution")).rows)
        for (const secret of secrets) {
          expect(JSON.stringify(added)).not.toContain(secret)
          expect(lines.filter((line) => line.includes(secret))).toEqual([])
          expect(executions).not.toContain(secret)
        }
      })
    })

    describe("delete-tw-saved-card", () => {
      it("the delete fails after the card left the mirror: the card stays active and mirrored; then it is deleted", async () => {
        const shopper = await customer()
        const { id, notification } = await waitingBinding(shopper)
        expect((await deliver(notification)).status).toBe(200)
        jest.spyOn(module(), "deleteSavedCard").mockRejectedValueOnce(new Error("forced: the database went away"))

        const failed = await api.delete(`/store/customers/me/tw-saved-cards/${id}`, { headers: shopper.headers }).catch(rejected)
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect(await cardRow(id)).toMatchObject({ status: "active", token_key_id: "run" })
        expect((await holders(shopper.id)).holders[0].data).toEqual({ tw_saved_cards: [expect.objectContaining({ id })] })

        jest.restoreAllMocks()
        const { data } = await api.delete(`/store/customers/me/tw-saved-cards/${id}`, { headers: shopper.headers })
        expect(data).toEqual({ id, object: "tw_saved_card", deleted: true })
        expect(await cardRow(id)).toMatchObject({ status: "deleted", token_ciphertext: null })
        expect((await holders(shopper.id)).holders[0].data).toEqual({ tw_saved_cards: [] })
      })
    })
  },
})
