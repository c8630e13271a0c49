import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { IPaymentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { TW_SAVED_CARD_MODULE, type TwSavedCardModuleService } from "../../src/modules/tw-saved-card"
import { adminToken, card, control, HOOK_PATH, payPage, PROVIDER_ID, REFUSED_CARD, seedStore, settle, type Store, SUCCESS_CARD, THREE_DS_CARD, useSandbox, waitFor } from "../helpers/hosted-store"
import { medusaCommand } from "../helpers/store-database"
import { keepAnswersAndLogs } from "../helpers/answers-and-logs"
import { storeTestRunner } from "../helpers/store-runner"

jest.setTimeout(180_000)
process.env.TW_RECONCILIATION = "off"
// The store boots with two token keys, "demo" active: the rotation test moves the tokens to "next".
const DEMO_KEY = randomBytes(32).toString("base64")
const NEXT_KEY = randomBytes(32).toString("base64")
process.env.TW_CARD_TOKEN_KEYS = `demo:${DEMO_KEY},next:${NEXT_KEY}`
const env = useSandbox()

type Headers = Record<string, string>

interface CardView {
  id: string
  status: string
  last4: string | null
  card_label: string | null
  bound_at: string | null
  created_at: string
  failure_reason: string | null
}

/**
 * Passes the sandbox's notifications on to the store, keeping a copy: the
 * only way a test learns a card token (the service shows it nowhere else), so
 * it can look for it where it must never be.
 */
function useRelay() {
  const relay = { bodies: [] as string[], target: "", url: "", server: undefined as Server | undefined }
  beforeAll(async () => {
    relay.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        relay.bodies.push(body)
        void fetch(relay.target, { method: "POST", headers: { "content-type": "application/json" }, body })
          .then((answer) => answer.status, () => 502)
          .then((status) => res.writeHead(status).end())
      })
    })
    await new Promise<void>((resolve) => relay.server!.listen(0, "127.0.0.1", resolve))
    relay.url = `http://127.0.0.1:${(relay.server!.address() as AddressInfo).port}/notify`
  })
  afterAll(() => new Promise<void>((resolve) => relay.server?.close(() => resolve())))
  return relay
}
const relay = useRelay()

/** The tokens the service sent, from the relayed `token` notifications. */
const tokensSent = () =>
  relay.bodies
    .map((body) => JSON.parse(body) as { purpose?: string; token?: string })
    .filter((n) => n.purpose === "token" && n.token)
    .map((n) => n.token as string)

/**
 * Saved cards end to end: the store's routes, the sandbox's binding page over
 * HTTP, the `token` notification through the store's intake, the account
 * holder's mirror, the key rotation command and the boot check. Every log
 * line and API answer of the file is kept and searched for the tokens.
 */
storeTestRunner({
  env: {},
  testSuite: ({ api, getContainer, dbConfig }) => {
    let store: Store
    let admin: Headers
    const { answers, lines, watchLogs, unwatchLogs } = keepAnswersAndLogs(api, getContainer)
    beforeEach(async () => {
      store = await seedStore(getContainer(), env.sandbox, api.defaults.baseURL)
      relay.target = `${api.defaults.baseURL}${HOOK_PATH}`
      await control(env.sandbox, "PATCH", `/merchants/${env.sandbox.defaultMerchant.merchantId}`, { notifyUrl: relay.url })
      admin = await adminToken(api, getContainer())
      lines.length = 0
      answers.length = 0
      watchLogs()
    })
    const allTokens = new Set<string>()
    afterEach(async () => {
      await settle()
      unwatchLogs()
      // No token of the file so far reached this test's log lines or API answers.
      tokensSent().forEach((token) => allTokens.add(token))
      relay.bodies.length = 0
      for (const token of allTokens) {
        expect(lines.filter((line) => line.includes(token))).toEqual([])
        expect(answers.filter((answer) => answer.includes(token))).toEqual([])
      }
    })

    const module = () => getContainer().resolve<TwSavedCardModuleService>(TW_SAVED_CARD_MODULE)
    const rowsInSql = async (container: MedusaContainer) =>
      (await container.resolve(ContainerRegistrationKeys.PG_CONNECTION).raw("select * from tw_saved_card order by created_at")).rows as Array<Record<string, unknown>>

    let customers = 0
    async function customer(): Promise<{ headers: Headers; id: string }> {
      const email = `shopper${++customers}-${randomBytes(3).toString("hex")}@example.test`
      const password = "customer-password-1"
      const { data: registered } = await api.post("/auth/customer/emailpass/register", { email, password })
      const { data } = await api.post("/store/customers", { email, first_name: "Mei", last_name: "Lin" }, { headers: { ...store.headers, authorization: `Bearer ${registered.token}` } })
      const { data: login } = await api.post("/auth/customer/emailpass", { email, password })
      return { headers: { ...store.headers, authorization: `Bearer ${login.token}` }, id: data.customer.id }
    }

    const list = async (headers: Headers): Promise<CardView[]> => (await api.get("/store/customers/me/tw-saved-cards", { headers })).data.saved_cards
    const listed = async (headers: Headers, id: string) => (await list(headers)).find((c) => c.id === id)
    const waitForCard = (headers: Headers, id: string, status: string) =>
      waitFor(async () => {
        const c = await listed(headers, id)
        return c?.status === status ? c : undefined
      }, `card ${id} ${status}`)

    /** Starts a binding and submits the card on the service's binding page. */
    async function bind(headers: Headers, number = SUCCESS_CARD) {
      const { data } = await api.post("/store/customers/me/tw-saved-cards", { return_path: "/account" }, { headers })
      expect(data.saved_card.status).toBe("binding")
      expect(data.checkout_url).toMatch(/\/checkout\/subscription\/create\/[A-Za-z0-9]+$/)
      const redirect = await payPage(data.checkout_url, card(number))
      return { id: data.saved_card.id as string, checkoutUrl: data.checkout_url as string, redirect }
    }

    async function holderOf(customerId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "customer", fields: ["id", "account_holders.*"], filters: { id: customerId } })
      return ((data[0] as { account_holders?: Array<{ id: string; provider_id: string; external_id: string; data: Record<string, unknown> } | null> }).account_holders ?? []).find(
        (h) => h?.provider_id === PROVIDER_ID
      )
    }

    it("binds a card on the binding page: listed active with its last four digits, the token encrypted in its row and nowhere else", async () => {
      const shopper = await customer()
      const { id, redirect } = await bind(shopper.headers)
      expect(redirect).toBe("http://localhost:8000/account")
      const active = await waitForCard(shopper.headers, id, "active")
      expect(active).toEqual({ id, status: "active", last4: "4242", card_label: null, bound_at: expect.any(String), created_at: expect.any(String), failure_reason: null })

      const [token] = tokensSent()
      expect(token).toMatch(/^tok_/)
      // The database row, read with SQL: the token only as ciphertext under the active key.
      const [row] = await rowsInSql(getContainer())
      expect(row).toMatchObject({ id, customer_id: shopper.id, provider_id: PROVIDER_ID, status: "active", last4: "4242", token_key_id: "demo" })
      expect(String(row.token_ciphertext)).toMatch(/^demo:/)
      expect(JSON.stringify(row)).not.toContain(token)
      expect(JSON.stringify(row)).not.toContain(token.slice(4))
      // Only the server gets it back, and only for the card's own customer.
      expect(await module().revealToken(id, shopper.id)).toBe(token)

      // Medusa's account holder: the customer is the holder; its data mirrors the safe facts.
      const holder = await waitFor(async () => {
        const h = await holderOf(shopper.id)
        return (h?.data?.tw_saved_cards as unknown[] | undefined)?.length ? h : undefined
      }, "the account holder's mirror")
      expect(holder.external_id).toBe(shopper.id)
      expect(holder.data).toEqual({ tw_saved_cards: [{ id, last4: "4242", card_label: null, bound_at: expect.any(String), created_at: expect.any(String) }] })
      for (const secret of [token, String(row.token_ciphertext), DEMO_KEY]) {
        expect(JSON.stringify(holder)).not.toContain(secret)
      }
      const methods = await getContainer()
        .resolve<IPaymentModuleService>(Modules.PAYMENT)
        .listPaymentMethods({ provider_id: PROVIDER_ID, context: { account_holder: holder } as never })
      expect(methods).toEqual([{ id, provider_id: PROVIDER_ID, data: { id, last4: "4242", card_label: null, bound_at: expect.any(String), created_at: expect.any(String) } }])

      // The admin's view of the customer.
      const { data: adminList } = await api.get(`/admin/customers/${shopper.id}/tw-saved-cards`, { headers: admin })
      expect(adminList.saved_cards).toEqual([expect.objectContaining({ id, status: "active", last4: "4242", customer_id: shopper.id, provider_id: PROVIDER_ID })])
      expect(JSON.stringify(adminList)).not.toMatch(/token|ciphertext/)
      expect(lines.some((line) => line.includes(`card ${id} bound (•••• 4242)`))).toBe(true)
    })

    it("a refused card and an abandoned 3-D Secure leave the binding failed with the reason; binding again succeeds", async () => {
      const shopper = await customer()
      const refused = await bind(shopper.headers, REFUSED_CARD)
      expect(refused.redirect).toMatch(/^http:\/\/localhost:8000\/account\?payment_error=T0003$/)
      expect(await waitForCard(shopper.headers, refused.id, "failed")).toMatchObject({ failure_reason: "the card was not accepted (payment_refused)", last4: "0051" })

      const challenged = await bind(shopper.headers, THREE_DS_CARD)
      expect(challenged.redirect).toMatch(/\/checkout\/3ds\//)
      await settle()
      expect((await listed(shopper.headers, challenged.id))?.status).toBe("binding")
      // The shopper never finishes 3-D Secure: the service gives up after 10 minutes of its clock.
      await control(env.sandbox, "POST", "/clock/advance", { seconds: 11 * 60 })
      await settle()
      expect(await waitForCard(shopper.headers, challenged.id, "failed")).toMatchObject({ failure_reason: "3-D Secure was not completed within 10 minutes (3DS_ABANDONED)" })
      expect((await rowsInSql(getContainer())).map((r) => r.token_ciphertext)).toEqual([null, null])

      const retried = await bind(shopper.headers)
      await waitForCard(shopper.headers, retried.id, "active")
      expect((await list(shopper.headers)).map((c) => c.status)).toEqual(["active", "failed", "failed"])
    })

    it("a lost token notification: the binding shows failed once its 10 minutes are past, and a late token changes nothing", async () => {
      const shopper = await customer()
      await control(env.sandbox, "POST", "/faults", { kind: "drop", purpose: "token" })
      const { id } = await bind(shopper.headers)
      await settle()
      expect(tokensSent()).toEqual([])
      expect(await listed(shopper.headers, id)).toMatchObject({ status: "binding", failure_reason: null })

      // The store's clock is not the sandbox's: the row's page ends 11 minutes ago instead of waiting for it.
      const [row] = await module().listTwSavedCards({ id })
      await module().updateTwSavedCards({ id, binding_expires_at: new Date(Date.now() - 11 * 60_000) })
      const shown = { status: "failed", failure_reason: "binding not completed in time" }
      expect(await listed(shopper.headers, id)).toMatchObject(shown)
      const { data: adminList } = await api.get(`/admin/customers/${shopper.id}/tw-saved-cards`, { headers: admin })
      expect(adminList.saved_cards[0]).toMatchObject(shown)

      // The token turns up after all (a resend): it is not taken.
      const late = { purpose: "token", id: row.binding_id, transactionId: row.binding_id, merchantId: env.sandbox.defaultMerchant.merchantId, success: true, token: "tok_late_token_never_stored", paymentInfo: "4242", customId: id }
      expect((await api.post(HOOK_PATH, late)).status).toBe(200)
      expect(await listed(shopper.headers, id)).toMatchObject(shown)
      const [stored] = await rowsInSql(getContainer())
      expect([stored.status, stored.token_ciphertext, stored.failure_reason]).toEqual(["failed", null, "binding not completed in time"])
      expect(lines.some((line) => line.includes("binding is past its time"))).toBe(true)
      expect(lines.filter((line) => line.includes("tok_late_token_never_stored"))).toEqual([])
    })

    it("duplicated notifications bind once; forged ones change nothing and are logged escaped", async () => {
      const shopper = await customer()
      await control(env.sandbox, "POST", "/faults", { kind: "duplicate", purpose: "token", count: 1 })
      const { id } = await bind(shopper.headers)
      await waitForCard(shopper.headers, id, "active")
      const [first] = await rowsInSql(getContainer())
      await settle()
      expect(relay.bodies.filter((b) => b.includes('"purpose":"token"')).length).toBeGreaterThanOrEqual(2)
      const [again] = await rowsInSql(getContainer())
      // A second activation would have encrypted again, with a new IV.
      expect([again.token_ciphertext, again.bound_at]).toEqual([first.token_ciphertext, first.bound_at])

      // A binding waiting for its token, then notifications that do not fit it.
      const waiting = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: shopper.headers })
      const waitingId: string = waiting.data.saved_card.id
      const [pending] = await module().listTwSavedCards({ id: waitingId })
      const merchantId = env.sandbox.defaultMerchant.merchantId
      const forged = (changes: Record<string, unknown>) =>
        api.post(HOOK_PATH, { purpose: "token", id: pending.binding_id, transactionId: pending.binding_id, merchantId, success: true, token: "tok_forged_token_value", paymentInfo: "1111", ...changes })
      const injected = `x\n\u001b[32minfo\u001b[39m:    hosted-checkout_hosted-checkout: card ${waitingId} bound (•••• 1111)\r`
      for (const changes of [{ id: injected, transactionId: injected }, { merchantId: "another-shop" }, { customId: id }, { id: "y".repeat(5_000), transactionId: "y".repeat(5_000) }]) {
        expect((await forged(changes)).status).toBe(200)
      }
      expect(await listed(shopper.headers, waitingId)).toMatchObject({ status: "binding", last4: null })
      const mine = lines.filter((line) => line.includes("ignored a token notification"))
      expect(mine).toHaveLength(4)
      for (const line of lines) {
        expect([..."\n\r\u001b"].filter((c) => line.includes(c))).toEqual([])
        expect(line.length).toBeLessThan(1_000)
        expect(line).not.toContain("tok_forged_token_value")
      }
      expect(mine.filter((line) => line.includes("not this merchant's"))).toHaveLength(1)
      expect(mine.filter((line) => line.includes(`its customId is not card ${waitingId}`))).toHaveLength(1)
    })

    it("each customer sees and deletes only their own cards; the admin lists and deletes any; the account holder follows", async () => {
      const owner = await customer()
      const other = await customer()
      const { id } = await bind(owner.headers)
      await waitForCard(owner.headers, id, "active")

      expect(await list(other.headers)).toEqual([])
      const foreign = await api.delete(`/store/customers/me/tw-saved-cards/${id}`, { headers: other.headers }).catch((e: { response: { status: number } }) => e.response)
      expect(foreign.status).toBe(404)
      const anonymous = await api.get("/store/customers/me/tw-saved-cards", { headers: store.headers }).catch((e: { response: { status: number } }) => e.response)
      expect(anonymous.status).toBe(401)
      const anonymousBind = await api.post("/store/customers/me/tw-saved-cards", {}, { headers: store.headers }).catch((e: { response: { status: number } }) => e.response)
      expect(anonymousBind.status).toBe(401)
      await expect(module().revealToken(id, other.id)).rejects.toThrow("was not found")
      expect((await listed(owner.headers, id))?.status).toBe("active")

      const { data: deleted } = await api.delete(`/store/customers/me/tw-saved-cards/${id}`, { headers: owner.headers })
      expect(deleted).toEqual({ id, object: "tw_saved_card", deleted: true })
      expect(await list(owner.headers)).toEqual([])
      const [row] = await rowsInSql(getContainer())
      expect([row.status, row.token_ciphertext]).toEqual(["deleted", null])
      expect((await holderOf(owner.id))?.data).toEqual({ tw_saved_cards: [] })
      const twice = await api.delete(`/store/customers/me/tw-saved-cards/${id}`, { headers: owner.headers }).catch((e: { response: { status: number } }) => e.response)
      expect(twice.status).toBe(404)

      const second = await bind(owner.headers)
      await waitForCard(owner.headers, second.id, "active")
      const { data: adminDeleted } = await api.delete(`/admin/tw-saved-cards/${second.id}`, { headers: admin })
      expect(adminDeleted.deleted).toBe(true)
      expect((await api.get(`/admin/customers/${owner.id}/tw-saved-cards`, { headers: admin })).data.saved_cards).toEqual([])
      expect(await list(owner.headers)).toEqual([])
    })

    it("the rotation command moves every token under the new key; a key that does not open the stored tokens stops the boot", async () => {
      const shopper = await customer()
      const { id } = await bind(shopper.headers)
      await waitForCard(shopper.headers, id, "active")
      const token = tokensSent().at(-1)!
      expect((await rowsInSql(getContainer()))[0].token_key_id).toBe("demo")

      // The merchant makes "next" active (first) and keeps "demo", then runs the command.
      await medusaCommand(["exec", "./src/scripts/rotate-card-token-keys.ts"], { ...process.env, DATABASE_URL: dbConfig.clientUrl, TW_CARD_TOKEN_KEYS: `next:${NEXT_KEY},demo:${DEMO_KEY}` })
      const [row] = await rowsInSql(getContainer())
      expect(row.token_key_id).toBe("next")
      expect(String(row.token_ciphertext)).toMatch(/^next:/)
      expect(JSON.stringify(row)).not.toContain(token)
      // The running store holds both keys: the token still opens.
      expect(await module().revealToken(id, shopper.id)).toBe(token)

      // A different key under the id the tokens are stored with: the store does not boot, and says which option.
      const wrongKey = randomBytes(32).toString("base64")
      const failure = await medusaCommand(["exec", "./src/scripts/rotate-card-token-keys.ts"], {
        ...process.env,
        DATABASE_URL: dbConfig.clientUrl,
        TW_CARD_TOKEN_KEYS: `next:${wrongKey},demo:${DEMO_KEY}`,
      }).then(
        () => "booted",
        (error: Error) => error.message
      )
      expect(failure).toContain('tokenKeys.next: does not open the tokens stored under "next"')
      for (const secret of [wrongKey, NEXT_KEY, DEMO_KEY, token]) {
        expect(failure).not.toContain(secret)
      }
      expect((await rowsInSql(getContainer()))[0].token_ciphertext).toBe(row.token_ciphertext)
    })
  },
})
