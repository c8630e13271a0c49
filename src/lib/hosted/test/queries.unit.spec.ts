import { AuthenticationError, InvalidRequestError, ServerError, UnexpectedResponseError } from "../../http"
import { API_TOKEN, fail, mockApi, ok, SUB_HID, TRANSACTION, TX_HID, TX_ID } from "./mock-api"

const SUBSCRIPTION = {
  id: SUB_HID,
  status: "active",
  period: 2,
  paymentInterval: 1,
  startedAt: "2026-10-22T01:00:00.000Z",
  createdAt: "2026-10-21T16:00:00.000Z",
}

describe("queries", () => {
  let api: ReturnType<typeof mockApi>
  beforeEach(() => {
    api = mockApi()
  })
  afterEach(async () => {
    await api.close()
  })

  const expectGet = (index: number, path: string) => {
    const req = api.requests[index]
    expect(req).toMatchObject({ method: "GET", path: `/api${path}`, body: undefined })
    expect(req.headers.authorization).toBe(`Bearer ${API_TOKEN}`)
    expect(req.headers["content-type"]).toBe("application/json")
  }

  describe("transactions.retrieve (GET /transactions/{id})", () => {
    it("reads by the 27-character id, keeping extra fields", async () => {
      api.reply("GET", `/transactions/${TX_ID}`, ok({ ...TRANSACTION, refundAmount: 0, futureField: "kept" }))
      const tx = await api.client.transactions.retrieve(TX_ID)
      expect(api.requests).toHaveLength(1)
      expectGet(0, `/transactions/${TX_ID}`)
      expect(tx).toEqual({ ...TRANSACTION, refundAmount: 0, futureField: "kept" })
    })

    it("reads by P number; productDetails may then be absent, cvs paymentInfo is an object", async () => {
      const { productDetails: _omitted, ...rest } = TRANSACTION
      const cvs = { cvsName: "7-ELEVEN", code: "LLL2611220001", expiredAt: "2026-11-24T16:00:00.000Z" }
      api.reply("GET", `/transactions/${TX_HID}`, ok({ ...rest, status: "charging", paymentMethod: "cvs", paymentInfo: cvs }))
      const tx = await api.client.transactions.retrieve(TX_HID)
      expectGet(0, `/transactions/${TX_HID}`)
      expect(tx.productDetails).toBeUndefined()
      expect(tx.paymentInfo).toEqual(cvs)
      expect(tx.status).toBe("charging")
    })

    it("parses atm paymentInfo", async () => {
      const atm = { bankName: "Taishin", bankCode: "812", account: "9103522175012345", expiredAt: "2026-11-25T16:00:00.000Z" }
      api.reply("GET", `/transactions/${TX_ID}`, ok({ ...TRANSACTION, paymentMethod: "atm", paymentInfo: atm }))
      expect((await api.client.transactions.retrieve(TX_ID)).paymentInfo).toEqual(atm)
    })

    it.each([["status"], ["amount"], ["transactionHid"], ["merchantId"], ["id"]])(
      "a response missing %s -> UnexpectedResponseError",
      async (field) => {
        const broken: Record<string, unknown> = { ...TRANSACTION }
        delete broken[field]
        api.reply("GET", `/transactions/${TX_ID}`, ok(broken))
        const error = await api.client.transactions.retrieve(TX_ID).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(UnexpectedResponseError)
        expect(error).toMatchObject({ code: "UNEXPECTED_RESPONSE", status: 200 })
        expect((error as Error).message).toContain(field)
      }
    )

    it("an undocumented status value -> UnexpectedResponseError", async () => {
      api.reply("GET", `/transactions/${TX_ID}`, ok({ ...TRANSACTION, status: "settled" }))
      await expect(api.client.transactions.retrieve(TX_ID)).rejects.toBeInstanceOf(UnexpectedResponseError)
    })

    it("a 200 outside the envelope -> UnexpectedResponseError", async () => {
      api.reply("GET", `/transactions/${TX_ID}`, { status: 200, body: TRANSACTION })
      const error = await api.client.transactions.retrieve(TX_ID).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnexpectedResponseError)
      expect(error).toMatchObject({ status: 200 })
    })

    it("rejects an id of neither form before sending", async () => {
      api.catchAll()
      for (const bad of ["abc", `${TX_ID}x`, "Q2026112200000001", "../transactions"]) {
        const error = await api.client.transactions.retrieve(bad).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(InvalidRequestError)
        expect(error).toMatchObject({ code: "CLIENT_VALIDATION" })
      }
      expect(api.requests).toHaveLength(0)
    })

    it("401 A0001 -> AuthenticationError", async () => {
      api.reply("GET", `/transactions/${TX_ID}`, fail(401, "A0001", "unauthorized"))
      const error = await api.client.transactions.retrieve(TX_ID).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AuthenticationError)
      expect(error).toMatchObject({ code: "A0001", status: 401 })
    })
  })

  describe("transactions.list (GET /transactions)", () => {
    it("follows the opaque page marker across three pages until it is null", async () => {
      const t = (n: number) => ({ ...TRANSACTION, id: `${TX_ID.slice(0, 26)}${n}`, transactionHid: `P20261122000000${n}0` })
      api.reply("GET", "/transactions", ok({ transactions: [t(1), t(2)], page: "eyJvIjo1MH0=" }))
      api.reply("GET", "/transactions?page=eyJvIjo1MH0%3D", ok({ transactions: [t(3)], page: "c2Vjb25k" }))
      api.reply("GET", "/transactions?page=c2Vjb25k", ok({ transactions: [t(4)], page: null }))

      const ids: string[] = []
      for await (const tx of api.client.transactions.list()) ids.push(tx.id)

      expect(ids).toEqual([1, 2, 3, 4].map((n) => t(n).id))
      expect(api.requests).toHaveLength(3)
      expectGet(0, "/transactions")
      expectGet(1, "/transactions?page=eyJvIjo1MH0%3D")
      expectGet(2, "/transactions?page=c2Vjb25k")
      api.agent.assertNoPendingInterceptors()
    })

    it("fetches lazily: breaking out after the first item reads one page only", async () => {
      api.reply("GET", "/transactions", ok({ transactions: [TRANSACTION], page: "next" }))
      for await (const tx of api.client.transactions.list()) {
        expect(tx.id).toBe(TX_ID)
        break
      }
      expect(api.requests).toHaveLength(1)
    })

    it("listPage returns one page and its marker", async () => {
      api.reply("GET", "/transactions?page=abc", ok({ transactions: [TRANSACTION], page: "def" }))
      const page = await api.client.transactions.listPage({ page: "abc" })
      expect(page).toEqual({ transactions: [TRANSACTION], page: "def" })
    })

    it("a repeated marker stops the walk with UnexpectedResponseError", async () => {
      api.reply("GET", "/transactions", ok({ transactions: [], page: "same" }))
      api.reply("GET", "/transactions?page=same", ok({ transactions: [], page: "same" }))
      const walk = async () => {
        for await (const _ of api.client.transactions.list()) void _
      }
      await expect(walk()).rejects.toBeInstanceOf(UnexpectedResponseError)
      expect(api.requests).toHaveLength(2)
    })

    it("invalid marker (500 F0001) -> ServerError after the read was retried", async () => {
      api.reply("GET", "/transactions?page=bogus", fail(500, "F0001", "invalid page"), 3)
      const error = await api.client.transactions.listPage({ page: "bogus" }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ServerError)
      expect(error).toMatchObject({ code: "F0001", status: 500, retryable: true })
      expect(api.requests).toHaveLength(3)
    })

    it("a page without the marker key is the last page (empty fields are omitted, spec 2.1)", async () => {
      api.reply("GET", "/transactions", ok({ transactions: [TRANSACTION] }))
      await expect(api.client.transactions.listPage()).resolves.toEqual({ transactions: [TRANSACTION], page: null })
    })

    it("a page without its list -> UnexpectedResponseError", async () => {
      api.reply("GET", "/transactions", ok({ page: null }))
      await expect(api.client.transactions.listPage()).rejects.toBeInstanceOf(UnexpectedResponseError)
    })
  })

  describe("transactions.listByOrder (GET /order/{orderId}/transactions)", () => {
    it("encodes the order id as one path segment and returns every attempt", async () => {
      const failed = { ...TRANSACTION, id: `${TX_ID.slice(0, 26)}9`, status: "failed" }
      api.reply("GET", "/order/order%2F2026%20%2311%3F/transactions", ok({ transactions: [failed, TRANSACTION] }))
      const list = await api.client.transactions.listByOrder("order/2026 #11?")
      expect(api.requests).toHaveLength(1)
      expectGet(0, "/order/order%2F2026%20%2311%3F/transactions")
      expect(list.map((tx) => tx.status)).toEqual(["failed", "charged"])
      expect(list.lastResponse).toMatchObject({ status: 200, attempts: 1 })
    })

    it("rejects an empty order id before sending", async () => {
      api.catchAll()
      await expect(api.client.transactions.listByOrder("")).rejects.toMatchObject({ code: "CLIENT_VALIDATION" })
      expect(api.requests).toHaveLength(0)
    })
  })

  describe("subscriptions.retrieve (GET /subscriptions/{id})", () => {
    it("reads one recurring payment by S number", async () => {
      api.reply("GET", `/subscriptions/${SUB_HID}`, ok(SUBSCRIPTION))
      const sub = await api.client.subscriptions.retrieve(SUB_HID)
      expectGet(0, `/subscriptions/${SUB_HID}`)
      expect(sub).toEqual(SUBSCRIPTION)
    })

    it("a record without status -> UnexpectedResponseError", async () => {
      const { status: _s, ...broken } = SUBSCRIPTION
      api.reply("GET", `/subscriptions/${SUB_HID}`, ok(broken))
      await expect(api.client.subscriptions.retrieve(SUB_HID)).rejects.toBeInstanceOf(UnexpectedResponseError)
    })

    it("rejects a non-S number before sending", async () => {
      api.catchAll()
      await expect(api.client.subscriptions.retrieve(TX_HID)).rejects.toBeInstanceOf(InvalidRequestError)
      expect(api.requests).toHaveLength(0)
    })
  })

  describe("subscriptions.list (GET /subscriptions)", () => {
    it("follows the page marker across two pages", async () => {
      const second = { ...SUBSCRIPTION, id: "S2026112200000008", status: "cancelled", cancelledAt: "2026-11-20T02:00:00.000Z" }
      api.reply("GET", "/subscriptions", ok({ subscriptions: [SUBSCRIPTION], page: "p2" }))
      api.reply("GET", "/subscriptions?page=p2", ok({ subscriptions: [second], page: null }))
      const seen = []
      for await (const sub of api.client.subscriptions.list()) seen.push(sub)
      expect(seen).toEqual([SUBSCRIPTION, second])
      expectGet(0, "/subscriptions")
      expectGet(1, "/subscriptions?page=p2")
      expect(api.requests).toHaveLength(2)
    })

    it("listPage returns one page", async () => {
      api.reply("GET", "/subscriptions", ok({ subscriptions: [SUBSCRIPTION], page: null }))
      expect(await api.client.subscriptions.listPage()).toEqual({ subscriptions: [SUBSCRIPTION], page: null })
    })
  })
})
