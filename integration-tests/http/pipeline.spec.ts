import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import reconcileTwPayments from "../../src/jobs/reconcile-tw-payments"
import { processTwPaymentWorkflow } from "../../src/workflows"
import {
  card,
  confirmCard,
  control,
  createCart,
  EMBEDDED_PROVIDER_ID,
  expectOneCapturedOrder,
  forgedCharged,
  HOOK_PATH,
  orderOfCart,
  paymentsOf,
  payPage,
  PROVIDER_KEY,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  transactionReads,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(240_000)
// Reads are counted here: the scheduled reconciliation must not add its own.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

/**
 * The event pipeline: one fresh read per delivery, repeats handled once,
 * direct runs (as the reconciliation job makes them) idempotent, and
 * unverified input never shaping the log.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
    })

    const deliveredNotifications = async (transactionId: string) =>
      (await control(env.sandbox, "GET", "/notifications?purpose=charge")).notifications.filter(
        (n: { body: { id?: string }; state: string }) => n.body.id === transactionId && n.state === "delivered"
      ).length

    it("a paid notification costs exactly one read of the transaction, and its repeats none", async () => {
      await control(env.sandbox, "POST", "/faults", { kind: "duplicate", purpose: "charge", count: 3 })
      const cart = await createCart(getContainer(), store, 1200)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      const before = await transactionReads(env.sandbox)
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))

      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(await deliveredNotifications(session.data.transactionId)).toBeGreaterThanOrEqual(2)
      // One read decided and completed the order: the completion used the pipeline's sealed read.
      expect((await transactionReads(env.sandbox)) - before).toBe(1)
    })

    const forgeCharged = (session: { id: string; data: { transactionId: string; transactionHid: string } }, amount: number) => api.post(HOOK_PATH, forgedCharged(env.sandbox, session, amount))
    /** Well below the reconciliation's minute (and it is off here): only the notification can place the order this soon. */
    const PROMPTLY_MS = 15_000

    it("a forged charged notification for an unpaid transaction changes nothing, and the real one still places the order promptly, for one read", async () => {
      const cart = await createCart(getContainer(), store, 800)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      const before = await transactionReads(env.sandbox)
      expect((await forgeCharged(session, 800)).status).toBe(200)
      await settle()
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
      // The forgery cost its one read, which found the page unpaid.
      expect((await transactionReads(env.sandbox)) - before).toBe(1)

      const paying = await transactionReads(env.sandbox)
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await waitFor(async () => (await orderOfCart(getContainer(), cart.id))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the order from the real notification", PROMPTLY_MS)
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect((await transactionReads(env.sandbox)) - paying).toBe(1)
    })

    it("a forged charged notification still in flight when the real one arrives does not suppress it", async () => {
      const cart = await createCart(getContainer(), store, 850)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      const before = await transactionReads(env.sandbox)
      // The forgery's read is answered (unpaid) only 12 s later: the real notification arrives meanwhile.
      await control(env.sandbox, "POST", "/faults", { kind: "timeout", endpoint: "GET /transactions/{id}", holdMs: 12_000, then: "answer" })
      expect((await forgeCharged(session, 850)).status).toBe(200)
      await waitFor(async () => (await transactionReads(env.sandbox)) - before === 1, "the forgery's read")
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      await waitFor(async () => (await orderOfCart(getContainer(), cart.id))?.payment_collections?.[0]?.payments?.[0]?.captured_at, "the order from the real notification", 12_000 + PROMPTLY_MS)
      await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      // The forgery's read and the real notification's.
      expect((await transactionReads(env.sandbox)) - before).toBe(2)
    })

    it("running the workflow again, as the reconciliation job does, changes nothing", async () => {
      const cart = await createCart(getContainer(), store, 700)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      const order = await expectOneCapturedOrder(getContainer(), cart.id, collectionId)

      const input = { provider: PROVIDER_KEY, serviceId: session.data.transactionId }
      const runs = await Promise.all([1, 2, 3].map(() => processTwPaymentWorkflow(getContainer()).run({ input })))
      expect(runs.map((r) => r.result.decision.kind)).toEqual(["ignore", "ignore", "ignore"])
      const after = await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(after.id).toBe(order.id)
      const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
      expect(tx.status).toBe("charged")
      expect(tx.refundAmount ?? 0).toBe(0)
    })

    /** How often the store called one endpoint of the sandbox (`POST /refunds/{transactionHid}`, …). */
    const calls = async (api: "hosted" | "embedded", endpoint: string) =>
      ((await control(env.sandbox, "GET", `/api-calls?api=${api}`)).apiCalls as Array<{ endpoint: string; calls: number }>)
        .filter((c) => c.endpoint === endpoint)
        .reduce((n, c) => n + c.calls, 0)
    /** The session table, as the test database has it (to age or remove a session behind the store's back). */
    const sql = (container: MedusaContainer) => container.resolve(ContainerRegistrationKeys.PG_CONNECTION)

    it("the job's service sweep refunds a page paid after its session was replaced, with every notification lost, exactly once", async () => {
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
      const cart = await createCart(getContainer(), store, 900)
      const { collectionId, session: replaced } = await startPayment(api, store, cart.id)
      // The shopper restarts checkout: the store replaces the session; the first page stays open at the service.
      const { session } = await startPayment(api, store, cart.id)
      expect(session.id).not.toBe(replaced.id)
      await payPage(replaced.data.checkoutUrl, card(SUCCESS_CARD))
      const paid = await control(env.sandbox, "GET", `/transactions/${replaced.data.transactionId}`)
      expect(paid.status).toBe("charged")

      const refunds = await calls("hosted", "POST /refunds/{transactionHid}")
      await reconcileTwPayments(getContainer(), { force: true })
      const tx = await control(env.sandbox, "GET", `/transactions/${replaced.data.transactionId}`)
      expect(tx.status).toBe("refunded")
      expect(tx.refundAmount).toBe(900)
      expect((await calls("hosted", "POST /refunds/{transactionHid}")) - refunds).toBe(1)

      await reconcileTwPayments(getContainer(), { force: true })
      expect((await calls("hosted", "POST /refunds/{transactionHid}")) - refunds).toBe(1)
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()
      expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
    })

    it("the job's service sweep refunds a paid intent whose session is gone (no webhook reached the store), exactly once", async () => {
      const cart = await createCart(getContainer(), store, 650)
      const { collectionId, session } = await startPayment(api, store, cart.id, {}, EMBEDDED_PROVIDER_ID)
      // The sandbox was reset: no webhook endpoint, so no event reaches the store.
      const confirmed = await confirmCard(env.sandbox, session.data.clientSecret, SUCCESS_CARD)
      expect(confirmed.body.data.status).toBe("succeeded")
      // The session disappears without its provider being asked (a crash mid-deletion): only the service still knows the payment.
      await sql(getContainer()).raw("delete from payment_session where id = ?", [session.id])

      const intentRefunds = async () =>
        ((await control(env.sandbox, "GET", `/refunds?paymentIntentId=${session.data.paymentIntentId}`)).refunds as Array<{ amount: number; status: string }>)
      await reconcileTwPayments(getContainer(), { force: true })
      expect(await intentRefunds()).toEqual([expect.objectContaining({ amount: 650 })])
      const posted = await calls("embedded", "POST /v1/refunds")

      await reconcileTwPayments(getContainer(), { force: true })
      expect(await intentRefunds()).toHaveLength(1)
      expect(await calls("embedded", "POST /v1/refunds")).toBe(posted)
      expect(await paymentsOf(getContainer(), collectionId)).toHaveLength(0)
    })

    it("the job's service sweep completes a paid cart the store walk no longer reads into one order", async () => {
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "charge", count: 10 })
      const cart = await createCart(getContainer(), store, 1100)
      const { collectionId, session } = await startPayment(api, store, cart.id)
      await payPage(session.data.checkoutUrl, card(SUCCESS_CARD))
      // Its page expired long ago as far as the session knows: the store's walk stops reading it (a late payment).
      await sql(getContainer()).raw(`update payment_session set data = jsonb_set(data, '{expiresAt}', '"2000-01-01T00:00:00.000Z"') where id = ?`, [session.id])
      expect(await orderOfCart(getContainer(), cart.id)).toBeUndefined()

      await reconcileTwPayments(getContainer(), { force: true })
      const order = await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      await reconcileTwPayments(getContainer(), { force: true })
      const again = await expectOneCapturedOrder(getContainer(), cart.id, collectionId)
      expect(again.id).toBe(order.id)
      const tx = await control(env.sandbox, "GET", `/transactions/${session.data.transactionId}`)
      expect(tx.refundAmount ?? 0).toBe(0)
    })

    it("a forged notification id can neither start nor flood a log line", async () => {
      const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER)
      const lines: string[] = []
      const spies = (["debug", "info", "warn", "error"] as const).map((level) =>
        jest.spyOn(logger, level).mockImplementation(((message: string) => {
          lines.push(String(message))
        }) as never)
      )
      const forgedLine = "hosted-checkout: refunded 500 TWD of P999 (refunded)"
      const notify = (id: string) =>
        api
          .post(HOOK_PATH, { purpose: "charge", id, transactionId: "tx_forged", transactionHid: "P999", merchantId: env.sandbox.defaultMerchant.merchantId, status: "charged" })
          .then((res: { status: number }) => res.status, (error: { response?: { status: number }; message: string }) => error.response?.status ?? error.message)
      const before = await transactionReads(env.sandbox)
      try {
        expect(await notify(`tx_1\n\u001b[32minfo\u001b[39m:    ${forgedLine}\r`)).toBe(200)
        expect(await notify("x".repeat(90_000))).toBe(200)
        await settle()
      } finally {
        spies.forEach((spy) => spy.mockRestore())
      }
      const mine = lines.filter((line) => line.includes("hosted-checkout"))
      expect(mine.length).toBeGreaterThan(0)
      for (const line of lines) {
        expect([..."\n\r\u001b"].filter((c) => line.includes(c))).toEqual([])
        expect(line.length).toBeLessThan(1_000)
        expect(line.startsWith(forgedLine)).toBe(false)
      }
      // Neither id has the shape of a transaction id: refused before any request.
      expect((await transactionReads(env.sandbox)) - before).toBe(0)
      expect(lines.filter((line) => line.includes("not a transaction of this merchant"))).toHaveLength(2)
    })
  },
})
