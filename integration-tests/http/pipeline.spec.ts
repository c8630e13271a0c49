import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { processTwPaymentWorkflow } from "../../src/workflows"
import {
  card,
  control,
  createCart,
  expectOneCapturedOrder,
  HOOK_PATH,
  payPage,
  PROVIDER_KEY,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  transactionReads,
  useSandbox,
} from "../helpers/hosted-store"

jest.setTimeout(240_000)
// Reads are counted here: the scheduled reconciliation must not add its own.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

/**
 * The event pipeline: one fresh read per delivery, repeats handled once,
 * direct runs (as the reconciliation job makes them) idempotent, and
 * unverified input never shaping the log.
 */
medusaIntegrationTestRunner({
  inApp: true,
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
