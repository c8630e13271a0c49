import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createCartWorkflow } from "@medusajs/medusa/core-flows"
import reconcileTwCancelledOrders from "../../src/jobs/reconcile-tw-cancelled-orders"
import {
  adminToken,
  capturedOrder,
  card,
  completeCart,
  control,
  paymentsOf,
  payPage,
  REFUND_REJECTED_CARD,
  seedStore,
  settle,
  startPayment,
  type Store,
  SUCCESS_CARD,
  useSandbox,
} from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
const env = useSandbox()
// The store issues e-invoices (as does the sandbox's merchant, below): every refund here needs its allowance lines.
beforeAll(() => {
  process.env.TW_EINVOICE = "true"
})

/** The invoiced lines of a test cart: tea x 2 and cakes x 1 making `amount` TWD. */
const cartLines = (amount: number) => {
  const tea = Math.floor(amount / 4)
  return [
    { title: "Oolong tea", unit_price: tea, quantity: 2, requires_shipping: false },
    { title: "Pineapple cakes", unit_price: amount - 2 * tea, quantity: 1, requires_shipping: false },
  ]
}
/** The error answer of a store call that must be refused. */
const refused = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error("the store accepted what it should refuse")
    },
    (e: { response: { status: number; data: { message: string } } }) => e.response
  )
const sum = (lines: Array<{ quantity: number; unitPrice: number }>) => lines.reduce((total, line) => total + line.quantity * line.unitPrice, 0)

const REMITTANCE = { bankCode: "004", bankName: "Bank of Taiwan", branchCode: "0037", branchName: "Xinyi", account: "123456789012", accountName: "Lin Mei" }

storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    let admin: { authorization: string }
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      admin = await adminToken(api, getContainer())
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { einvoiceActive: true })
    })

    /** A cart of two lines worth `amount`, with the buyer's email and billing name (what the e-invoice is sent to). */
    async function invoicedCart(amount: number, billingName: { first_name?: string; last_name?: string } = { first_name: "Mei", last_name: "Lin" }) {
      const { result } = await createCartWorkflow(getContainer()).run({
        input: {
          region_id: store.regionId,
          sales_channel_id: store.salesChannelId,
          currency_code: "twd",
          email: "shopper@example.test",
          billing_address: { ...billingName, address_1: "No. 7, Xinyi Road", city: "Taipei City", country_code: "tw" },
          items: cartLines(amount),
        },
      })
      return result
    }

    /** A placed order paid by card (or cvs, paid at the store), and its payment. */
    async function paidOrder(amount: number, how: "card" | "cvs" = "card", cardNumber = SUCCESS_CARD, invoice?: Record<string, unknown>) {
      const cart = await invoicedCart(amount)
      const { session } = await startPayment(api, store, cart.id, { ...(how === "cvs" ? { methods: ["cvs"] } : {}), ...(invoice ? { invoice } : {}) })
      if (how === "cvs") {
        await payPage(session.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
        await completeCart(api, store, cart.id)
        await control(env.sandbox, "POST", `/transactions/${session.data.transactionId}/pay`)
      } else {
        await payPage(session.data.checkoutUrl, card(cardNumber))
        await completeCart(api, store, cart.id)
      }
      const order = await capturedOrder(getContainer(), cart.id)
      const payment = order.payment_collections![0]!.payments![0]!
      return { collectionId: order.payment_collections![0]!.id, payment, transactionId: session.data.transactionId }
    }

    const refund = (paymentId: string, amount: number) =>
      api.post(`/admin/payments/${paymentId}/refund`, { amount }, { headers: admin }).catch((e: { response: unknown }) => e.response)
    const paymentData = async (id: string) =>
      (await getContainer().resolve(Modules.PAYMENT).retrievePayment(id, { select: ["data"] })).data as Record<string, unknown>
    const transaction = (id: string) => control(env.sandbox, "GET", `/transactions/${id}`)

    describe("hosted checkout refunds (spec 4.10)", () => {
      it("card: a full refund completes at once", async () => {
        const { payment, transactionId } = await paidOrder(1200)
        const res = await refund(payment.id, 1200)
        expect(res.status).toBe(200)
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 1200 })
        expect(await paymentData(payment.id)).toMatchObject({ status: "refunded", refundAmount: 1200, refund: { amount: 1200, status: "refunded" } })
      })

      it("an order cancelled after the payout keeps its refund owed while the service refuses it (F0001), and the reconciliation refunds it after the next sale", async () => {
        const { payment, transactionId, collectionId } = await paidOrder(780)
        const [{ order_id: orderId }] = (
          await getContainer().resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: collectionId } })
        ).data
        // A month on, everything collected is paid out: the service refuses refunds until the merchant sells again.
        await control(env.sandbox, "POST", "/clock/advance", { seconds: 32 * 24 * 3600 })

        // Core's cancel logs the refused refund and cancels the order anyway; the money stays owed.
        expect((await api.post(`/admin/orders/${orderId}/cancel`, {}, { headers: admin })).status).toBe(200)
        await settle()
        expect(await transaction(transactionId)).toMatchObject({ status: "charged" })
        expect((await transaction(transactionId)).refundAmount).toBeUndefined()
        await reconcileTwCancelledOrders(getContainer(), { force: true })
        expect(await transaction(transactionId)).toMatchObject({ status: "charged" })

        await paidOrder(1000)
        await reconcileTwCancelledOrders(getContainer(), { force: true })
        expect(await transaction(transactionId)).toMatchObject({ status: "refundedPostPayout", refundAmount: 780 })
        const refunds = await getContainer().resolve(Modules.PAYMENT).listRefunds({ payment_id: payment.id })
        expect(refunds.map((r) => Number(r.amount))).toEqual([780])
        // Nothing more is owed: another run refunds nothing twice.
        await reconcileTwCancelledOrders(getContainer(), { force: true })
        expect((await getContainer().resolve(Modules.PAYMENT).listRefunds({ payment_id: payment.id })).length).toBe(1)
      })

      it("card: a partial refund uses up the only refund; a second one is refused with the reason", async () => {
        const { payment, transactionId } = await paidOrder(1500)
        expect((await refund(payment.id, 500)).status).toBe(200)
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 500 })

        const second = await refund(payment.id, 300)
        expect(second.status).toBeGreaterThanOrEqual(400)
        expect(second.data.message).toMatch(/one refund per transaction/)
        expect(second.data.message).toMatch(/500 TWD/)
        expect((await transaction(transactionId)).refundAmount).toBe(500)
      })

      it("cvs: needs the shopper's bank account, supplied through the admin route, then ends in refunding and refunded", async () => {
        const { payment, transactionId } = await paidOrder(900, "cvs")
        const missing = await refund(payment.id, 900)
        expect(missing.status).toBeGreaterThanOrEqual(400)
        expect(missing.data.message).toContain(`/admin/tw-payments/{payment_id}/remittance`)
        expect((await transaction(transactionId)).status).toBe("charged")

        const bad = await api
          .post(`/admin/tw-payments/${payment.id}/remittance`, { ...REMITTANCE, account: "123" }, { headers: admin })
          .catch((e: { response: unknown }) => e.response)
        expect(bad.status).toBe(400)
        expect(bad.data.message).toMatch(/account/)

        const before = await api.get(`/admin/tw-payments/${payment.id}`, { headers: admin })
        expect(before.data.payment).toMatchObject({ payment_method: "cvs", status: "charged", needs_remittance: true, remittance: null })

        const stored = await api.post(`/admin/tw-payments/${payment.id}/remittance`, REMITTANCE, { headers: admin })
        expect(stored.data.remittance.account).toBe("********9012")
        const after = await api.get(`/admin/tw-payments/${payment.id}`, { headers: admin })
        expect(after.data.payment.remittance).toEqual({ bank_name: "Bank of Taiwan", account: "********9012" })
        expect(JSON.stringify(after.data)).not.toContain(REMITTANCE.account)

        const res = await refund(payment.id, 900)
        expect(res.status).toBe(200)
        const data = await paymentData(payment.id)
        expect(data).toMatchObject({ status: "refunding", refund: { amount: 900, status: "refunding" } })
        expect(data.remitInfo).toBeUndefined()
        expect(JSON.stringify(data)).not.toContain(REMITTANCE.account)

        await control(env.sandbox, "POST", "/clock/advance", { seconds: 8 * 86_400 })
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 900 })
      })

      it("the remittance route refuses card payments and unauthenticated callers", async () => {
        const { payment } = await paidOrder(300)
        const card = await api.post(`/admin/tw-payments/${payment.id}/remittance`, REMITTANCE, { headers: admin }).catch((e: { response: unknown }) => e.response)
        expect(card.status).toBe(400)
        const anonymous = await api.post(`/admin/tw-payments/${payment.id}/remittance`, REMITTANCE).catch((e: { response: unknown }) => e.response)
        expect(anonymous.status).toBe(401)
      })

      it("F0001 `Current charged amount too low` becomes a clear error and nothing is refunded", async () => {
        const { payment, transactionId } = await paidOrder(150)
        const res = await refund(payment.id, 150)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/below 200 TWD/)
        expect((await transaction(transactionId)).status).toBe("charged")
      })

      it("R0001 (acquirer rejected) becomes a clear error after a re-read", async () => {
        const { payment, transactionId } = await paidOrder(800, "card", REFUND_REJECTED_CARD)
        const res = await refund(payment.id, 800)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/acquirer rejected/)
        expect((await transaction(transactionId)).status).toBe("charged")
      })

      it("a 5xx after the refund happened: the re-read finds it and the refund is recorded once", async () => {
        const { collectionId, payment, transactionId } = await paidOrder(700)
        await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /refunds/{transactionHid}", applied: true, count: 1 })
        const res = await refund(payment.id, 700)
        expect(res.status).toBe(200)
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 700 })
        const [recorded] = await paymentsOf(getContainer(), collectionId)
        expect(recorded.refunds).toHaveLength(1)
      })

      it("a 5xx before anything happened: a clear error, nothing resent, nothing recorded", async () => {
        const { payment, transactionId } = await paidOrder(700)
        await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /refunds/{transactionHid}", applied: false, count: 1 })
        const res = await refund(payment.id, 700)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.data.message).toMatch(/Nothing was resent/)
        expect((await transaction(transactionId)).status).toBe("charged")
        // The fault is used up: a deliberate second try by the admin goes through.
        expect((await refund(payment.id, 700)).status).toBe(200)
        expect((await transaction(transactionId)).refundAmount).toBe(700)
      })

      it("a time-out: the re-read decides", async () => {
        const { payment, transactionId } = await paidOrder(650)
        await control(env.sandbox, "POST", "/faults", { kind: "timeout", endpoint: "POST /refunds/{transactionHid}", holdMs: 35_000, then: "drop", applied: true, count: 1 })
        const res = await refund(payment.id, 650)
        expect(res.status).toBe(200)
        expect(await transaction(transactionId)).toMatchObject({ status: "refunded", refundAmount: 650 })
      })
    })

    describe("e-invoice (spec 2.3, 4.10)", () => {
      it("the checkout is invoiced on the cart's lines, to the billing name and email", async () => {
        const { transactionId } = await paidOrder(1000)
        const tx = await transaction(transactionId)
        expect(tx).toMatchObject({ invoiced: true, userName: "Mei Lin", userEmail: "shopper@example.test" })
        expect(tx.productDetails).toEqual([
          { productionCode: expect.any(String), description: "Oolong tea", quantity: 2, unit: "item", unitPrice: 250 },
          { productionCode: expect.any(String), description: "Pineapple cakes", quantity: 1, unit: "item", unitPrice: 500 },
        ])
      })

      it("a full refund's allowance is the invoiced lines", async () => {
        const { payment, transactionId } = await paidOrder(1000)
        expect((await refund(payment.id, 1000)).status).toBe(200)
        const tx = await transaction(transactionId)
        expect(tx.refund.allowance).toEqual(tx.productDetails)
        expect(sum(tx.refund.allowance)).toBe(1000)
      })

      it("a partial refund's allowance shares the refund by line, in whole TWD summing exactly to it", async () => {
        const { payment, transactionId } = await paidOrder(1000)
        expect((await refund(payment.id, 333)).status).toBe(200)
        const tx = await transaction(transactionId)
        expect(tx).toMatchObject({ status: "refunded", refundAmount: 333 })
        // 333 of 1000: tea 500 -> 166.5 -> 166, cakes take the rest, 167.
        expect(tx.refund.allowance).toEqual([
          { productionCode: expect.any(String), description: "Oolong tea", quantity: 1, unit: "item", unitPrice: 166 },
          { productionCode: expect.any(String), description: "Pineapple cakes", quantity: 1, unit: "item", unitPrice: 167 },
        ])
        expect(sum(tx.refund.allowance)).toBe(333)
      })

      it("the admin payment details show the invoice choice, a personal carrier masked", async () => {
        const barcode = { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC+1.7" }
        const { payment } = await paidOrder(600, "card", SUCCESS_CARD, barcode)
        const res = await api.get(`/admin/tw-payments/${payment.id}`, { headers: admin })
        expect(res.data.payment.invoice).toEqual({ invoice_type: "cloud", label: "Mobile barcode", carrier: "*****1.7" })
        expect(JSON.stringify(res.data)).not.toContain("/ABC+1.7")

        const company = { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "Taipei Tea Co." }
        const second = await paidOrder(700, "card", SUCCESS_CARD, company)
        const shown = await api.get(`/admin/tw-payments/${second.payment.id}`, { headers: admin })
        expect(shown.data.payment.invoice).toEqual({ invoice_type: "company", label: "Company (tax id)", tax_id: "10458574", company_name: "Taipei Tea Co." })
      })

      it("a barcode the tax authority does not know (INVALID_CARRIER_ID) reaches the shopper as a message naming the field", async () => {
        const cart = await invoicedCart(500)
        const res = await refused(startPayment(api, store, cart.id, { invoice: { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/AAAAAAA" } }))
        expect(res.status).toBe(400)
        expect(res.data.message).toMatch(/e-invoice carrier was not accepted \(invoice\.carrierId\)/)
      })

      it("a cart without a billing name is refused before any call, naming what is missing", async () => {
        const before = (await control(env.sandbox, "GET", "/transactions")).transactions.length
        const cart = await invoicedCart(500, {})
        const res = await refused(startPayment(api, store, cart.id))
        expect(res.status).toBe(400)
        expect(res.data.message).toMatch(/buyer's name and email; this cart has no name/)
        expect((await control(env.sandbox, "GET", "/transactions")).transactions.length).toBe(before)
      })
    })
  },
})
