import { Modules } from "@medusajs/framework/utils"
import {
  adminToken,
  capturedOrder,
  completeCart,
  confirmCard,
  control,
  createCart,
  EMBEDDED_PROVIDER_ID,
  paymentsOf,
  quietEmbeddedWebhooks,
  seedStore,
  startPayment,
  type Store,
  useSandbox,
  waitFor,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
// The scheduled reconciliation would sweep earlier tests' payments (their sessions gone with the database
// reset) and refund them as orphans, using up the refund faults these tests inject for their own refund.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()
const SUCCESS = "4242424242424242"
const REFUND_STAYS_PENDING = "4000000000005506"
const REFUND_FAILS = "4000000000005514"

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: { authorization: string }
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL, { reset: false })
      admin = await adminToken(api, getContainer())
    })
    afterEach(async () => {
      await quietEmbeddedWebhooks(env.sandbox)
    })

    async function paidOrder(amount: number, cardNumber = SUCCESS) {
      const cart = await createCart(getContainer(), store, amount)
      const { session } = await startPayment(api, store, cart.id, {}, EMBEDDED_PROVIDER_ID)
      await confirmCard(env.sandbox, session.data.clientSecret, cardNumber)
      await completeCart(api, store, cart.id)
      const order = await capturedOrder(getContainer(), cart.id)
      return { collectionId: order.payment_collections![0]!.id, payment: order.payment_collections![0]!.payments![0]!, intentId: session.data.paymentIntentId }
    }

    const refund = (paymentId: string, amount: number) =>
      api.post(`/admin/payments/${paymentId}/refund`, { amount }, { headers: admin }).catch((e: { response: unknown }) => e.response)
    const serviceRefunds = async (intentId: string) =>
      ((await control(env.sandbox, "GET", "/refunds")).refunds as Array<{ paymentIntentId: string; amount: number; status: string }>).filter((r) => r.paymentIntentId === intentId)
    const paymentData = async (id: string) =>
      (await getContainer().resolve(Modules.PAYMENT).retrievePayment(id, { select: ["data"] })).data as { refunds?: Array<{ amount: number; status: string }> }
    const addFault = (fault: Record<string, unknown>) => control(env.sandbox, "POST", "/faults", { api: "embedded", endpoint: "POST /v1/refunds", count: 1, ...fault })

    describe("embedded card refunds", () => {
      it("several partial refunds, each with its own idempotency key", async () => {
        const { collectionId, payment, intentId } = await paidOrder(1000)
        expect((await refund(payment.id, 300)).status).toBe(200)
        expect((await refund(payment.id, 200)).status).toBe(200)
        const atService = await serviceRefunds(intentId)
        expect(atService.map((r) => r.amount).sort()).toEqual([200, 300])
        expect(atService.every((r) => r.status === "succeeded")).toBe(true)
        const [recorded] = await paymentsOf(getContainer(), collectionId)
        expect(recorded.refunds).toHaveLength(2)
        expect((await paymentData(payment.id)).refunds).toHaveLength(2)
      })

      it("REFUND_AMOUNT_EXCEEDED is a clear error (money already returned at the service)", async () => {
        const { payment, intentId } = await paidOrder(1000)
        // Someone refunded 700 in the service's console, outside Medusa.
        await fetch(`${env.sandbox.embedded.baseUrl}/v1/refunds`, {
          method: "POST",
          headers: { authorization: `Bearer ${env.sandbox.embedded.secretKey}`, "content-type": "application/json" },
          body: JSON.stringify({ paymentIntentId: intentId, amount: 700, reason: "requested_by_customer" }),
        })
        const res = await refund(payment.id, 500)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/larger than what is left to refund/)
        expect((await serviceRefunds(intentId)).map((r) => r.amount)).toEqual([700])
      })

      it("REFUND_WINDOW_EXPIRED (more than 180 days) is a clear error", async () => {
        const { payment } = await paidOrder(800)
        await control(env.sandbox, "POST", "/clock/advance", { seconds: 181 * 86_400 })
        const res = await refund(payment.id, 800)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/within 180 days/)
      })

      it("a 200 that carries a failed refund is an error, and nothing is recorded", async () => {
        const { collectionId, payment } = await paidOrder(600, REFUND_FAILS)
        const res = await refund(payment.id, 600)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/declined the refund/)
        const [recorded] = await paymentsOf(getContainer(), collectionId)
        expect(recorded.refunds).toHaveLength(0)
      })

      it("a pending refund is recorded pending and updated by the refund webhook", async () => {
        const { payment, intentId } = await paidOrder(900, REFUND_STAYS_PENDING)
        expect((await refund(payment.id, 900)).status).toBe(200)
        expect((await paymentData(payment.id)).refunds).toEqual([expect.objectContaining({ amount: 900, status: "pending" })])

        await control(env.sandbox, "POST", "/clock/advance", { seconds: 120 })
        expect((await serviceRefunds(intentId))[0].status).toBe("succeeded")
        await waitFor(async () => (await paymentData(payment.id)).refunds?.[0]?.status === "succeeded", "the refund webhook to update the payment")
      })

      it("REFUND_RECONCILIATION_REQUIRED after the refund happened: listed first, recorded once", async () => {
        const { collectionId, payment, intentId } = await paidOrder(700)
        await addFault({ kind: "refundReconciliation", applied: true })
        expect((await refund(payment.id, 700)).status).toBe(200)
        expect(await serviceRefunds(intentId)).toHaveLength(1)
        const [recorded] = await paymentsOf(getContainer(), collectionId)
        expect(recorded.refunds).toHaveLength(1)
      })

      it("INTERNAL_ERROR after the refund happened: listed first, recorded once", async () => {
        const { payment, intentId } = await paidOrder(650)
        await addFault({ kind: "http500", applied: true })
        expect((await refund(payment.id, 650)).status).toBe(200)
        expect(await serviceRefunds(intentId)).toHaveLength(1)
      })

      it("INTERNAL_ERROR before anything happened: a clear error, then a deliberate retry refunds once", async () => {
        const { collectionId, payment, intentId } = await paidOrder(640)
        // The client retries a keyed POST on 5xx, so the fault must outlast its retries.
        await addFault({ kind: "http500", applied: false, count: 3 })
        const res = await refund(payment.id, 640)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/cannot refund twice/)
        expect(await serviceRefunds(intentId)).toHaveLength(0)
        expect((await refund(payment.id, 640)).status).toBe(200)
        expect(await serviceRefunds(intentId)).toHaveLength(1)
        const [recorded] = await paymentsOf(getContainer(), collectionId)
        expect(recorded.refunds).toHaveLength(1)
      })
    })
  },
})
