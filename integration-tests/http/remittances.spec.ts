import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { adminToken, control, createCart, hostedCalls, payPage, seedStore, startPayment, useSandbox, waitFor, type Store } from "../helpers/hosted-store"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
// Off: the scheduled reconciliation's sweep could use up the refund faults a test injects for its own refund.
process.env.TW_RECONCILIATION = "off"
const env = useSandbox()

const ACCOUNT = { bankCode: "004", bankName: "Bank of Taiwan", branchCode: "0037", branchName: "Xinyi", account: "987654321098", accountName: "Lin Mei" }

/**
 * Money only a remittance can return (a cvs code or bank transfer paid for a
 * session the store dropped): recorded for the merchant, listed in the admin,
 * refunded to the bank account the merchant types, once (money model with cvs
 * codes, seed 2026: `changeCart`, `takeCvsCode`, `payCodeAtCounter`, I1).
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer }) => {
    let store: Store
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
    })

    const answer = (request: Promise<{ status: number; data: Record<string, unknown> }>) =>
      request.then(
        (res) => ({ status: res.status, data: res.data }),
        (e: { response: { status: number; data: Record<string, unknown> } }) => ({ status: e.response.status, data: e.response.data })
      )

    /**
     * The shopper starts checkout again (core replaces the session), but the first page, which the service
     * cannot close, is still open in another tab: a code is taken there and paid at the counter.
     */
    async function paidForDroppedSession(admin: Record<string, string>) {
      const cart = await createCart(getContainer(), store, 820)
      const { session: first } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
      const { session: second } = await startPayment(api, store, cart.id, { methods: ["cvs"] })
      expect(second.id).not.toBe(first.id)
      await payPage(first.data.checkoutUrl, { method: "cvs", cvsName: "7-ELEVEN" })
      await control(env.sandbox, "POST", `/transactions/${first.data.transactionId}/pay`)
      const listed = await waitFor(async () => {
        const { data } = await api.get("/admin/tw-remittances", { headers: admin })
        return (data.remittances as Array<Record<string, unknown>>).find((r) => r.transaction_id === first.data.transactionId)
      }, "the paid code listed as due for remittance")
      return { first, listed }
    }

    const dueIds = async (admin: Record<string, string>) => ((await api.get("/admin/tw-remittances", { headers: admin })).data.remittances as Array<{ id: string }>).map((r) => r.id)

    it("a cvs code paid after the store dropped its session is listed as due, refunded by remittance once, and its account is never stored or answered", async () => {
      const container = getContainer()
      const admin = await adminToken(api, container)
      const errors = jest.spyOn(container.resolve(ContainerRegistrationKeys.LOGGER), "error")
      const { first, listed } = await paidForDroppedSession(admin)
      expect(listed).toMatchObject({ amount: 820, payment_method: "cvs", transaction_hid: first.data.transactionHid, session_id: first.id, refunded_at: null })
      expect(errors.mock.calls.some(([line]) => String(line).includes(`${first.data.transactionHid}`) && String(line).includes("Remittances page"))).toBe(true)
      // Nothing went back behind the merchant's back.
      expect(await control(env.sandbox, "GET", `/transactions/${first.data.transactionId}`)).toMatchObject({ status: "charged" })

      // A bad account is refused and changes nothing.
      const refused = await answer(api.post(`/admin/tw-remittances/${listed.id}/refund`, { ...ACCOUNT, account: "123" }, { headers: admin }))
      expect(refused.status).toBe(400)
      expect(String(refused.data.message)).toContain("account")
      expect(await control(env.sandbox, "GET", `/transactions/${first.data.transactionId}`)).toMatchObject({ status: "charged" })

      const refunded = await answer(api.post(`/admin/tw-remittances/${listed.id}/refund`, ACCOUNT, { headers: admin }))
      expect(refunded.status).toBe(200)
      expect(refunded.data).toMatchObject({ refunded_now: true, remittance: { id: listed.id, refunded_at: expect.any(String) } })
      expect(JSON.stringify(refunded.data)).not.toContain(ACCOUNT.account)
      const tx = await control(env.sandbox, "GET", `/transactions/${first.data.transactionId}`)
      expect(tx.refundAmount).toBe(820)
      expect(["refunding", "refunded"]).toContain(tx.status)

      // Once: a second refund is refused, and the row moves to the refunded list.
      const again = await answer(api.post(`/admin/tw-remittances/${listed.id}/refund`, ACCOUNT, { headers: admin }))
      expect(again.status).toBe(400)
      expect(String(again.data.message)).toContain("already refunded")
      expect(await dueIds(admin)).not.toContain(listed.id)
      const { data: done } = await api.get("/admin/tw-remittances?status=refunded", { headers: admin })
      expect((done.remittances as Array<{ id: string }>).map((r) => r.id)).toContain(listed.id)
      const stored = await container.resolve(ContainerRegistrationKeys.PG_CONNECTION).raw("select * from tw_remittance_due")
      expect(JSON.stringify(stored.rows)).not.toContain(ACCOUNT.account)
      errors.mockRestore()
    })

    it("a refund the service answers with an error: nothing resent and the row stays due; one it made behind the error counts as made, once", async () => {
      const admin = await adminToken(api, getContainer())
      const { first, listed } = await paidForDroppedSession(admin)
      const refundCalls = () => hostedCalls(env.sandbox, "POST /refunds/{transactionHid}")
      const before = await refundCalls()

      // A 500 with nothing done: the admin is told to try again, and nothing changed on either side.
      await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /refunds/{transactionHid}", applied: false, count: 1 })
      const failed = await answer(api.post(`/admin/tw-remittances/${listed.id}/refund`, ACCOUNT, { headers: admin }))
      expect(failed.status).toBeGreaterThanOrEqual(500)
      expect(String(failed.data.message)).toContain(`The refund of ${first.data.transactionHid} got no clear answer`)
      expect(String(failed.data.message)).toContain("Nothing was resent; try again")
      expect(JSON.stringify(failed.data)).not.toContain(ACCOUNT.account)
      const untouched = await control(env.sandbox, "GET", `/transactions/${first.data.transactionId}`)
      expect(untouched).toMatchObject({ status: "charged" })
      expect(untouched.refundAmount ?? 0).toBe(0)
      expect(await dueIds(admin)).toContain(listed.id)

      // A 500 after the service made the refund: the fresh read shows it, so it is recorded as made, and not sent again.
      await control(env.sandbox, "POST", "/faults", { kind: "http500", endpoint: "POST /refunds/{transactionHid}", applied: true, count: 1 })
      const made = await answer(api.post(`/admin/tw-remittances/${listed.id}/refund`, ACCOUNT, { headers: admin }))
      expect(made.status).toBe(200)
      expect(made.data).toMatchObject({ refunded_now: true, remittance: { id: listed.id, refunded_at: expect.any(String) } })
      expect((await control(env.sandbox, "GET", `/transactions/${first.data.transactionId}`)).refundAmount).toBe(820)
      expect(await dueIds(admin)).not.toContain(listed.id)
      expect((await refundCalls()) - before).toBe(2)
    })
  },
})
