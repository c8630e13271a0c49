import { AuthenticationError, DeclinedError, InvalidRequestError, UnknownOutcomeError } from "../../http"
import { API_TOKEN, CARD_TOKEN, fail, MERCHANT, mockApi, ok, SUB_HID, TOKEN_INPUT, TX_HID, TX_ID } from "./mock-api"

describe("token charges and token subscriptions", () => {
  let api: ReturnType<typeof mockApi>
  beforeEach(() => {
    api = mockApi()
  })
  afterEach(async () => {
    await api.close()
  })

  const expectJsonPost = (path: string) => {
    expect(api.requests).toHaveLength(1)
    const [req] = api.requests
    expect(req).toMatchObject({ method: "POST", path: `/api${path}` })
    expect(req.headers.authorization).toBe(`Bearer ${API_TOKEN}`)
    expect(req.headers["content-type"]).toBe("application/json")
    return req
  }

  describe("tokenCharges.create (POST /token/transactions)", () => {
    it("sends the charge and returns the P number and auth code", async () => {
      api.reply("POST", "/token/transactions", ok({ id: TX_HID, authCode: "A77001" }))
      const input = { ...TOKEN_INPUT, userPhone: "0912345678", expectedPayoutDate: "2026/12/05" }
      const result = await api.client.tokenCharges.create(input)
      expect(expectJsonPost("/token/transactions").body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result).toEqual({ id: TX_HID, authCode: "A77001" })
    })

    it.each(["T0001", "T0002", "T0003", "T0004", "T0005"])("400 %s -> DeclinedError", async (code) => {
      api.reply("POST", "/token/transactions", fail(400, code, "card declined"))
      const error = await api.client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DeclinedError)
      expect(error).toMatchObject({ code, status: 400, retryable: false })
    })

    it("400 V0001 parameter error -> InvalidRequestError", async () => {
      api.reply("POST", "/token/transactions", fail(400, "V0001", "PRODUCT_AMOUNT_NOT_MATCH"))
      const error = await api.client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error).toMatchObject({ code: "V0001", variant: "PRODUCT_AMOUNT_NOT_MATCH" })
    })

    it("401 A0001 -> AuthenticationError", async () => {
      api.reply("POST", "/token/transactions", fail(401, "A0001", "unauthorized"))
      await expect(api.client.tokenCharges.create(TOKEN_INPUT)).rejects.toBeInstanceOf(AuthenticationError)
    })

    it("409 C026 -> UnknownOutcomeError, not retryable, sent once", async () => {
      api.reply("POST", "/token/transactions", fail(409, "C026", "result unknown", { retryable: false }), 2)
      const error = await api.client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(error).toMatchObject({ code: "C026", status: 409, retryable: false })
      expect(api.requests).toHaveLength(1)
    })

    it("502 -> UnknownOutcomeError without a retry", async () => {
      api.reply("POST", "/token/transactions", { status: 502, text: "Bad Gateway" }, 3)
      const error = await api.client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(error).toMatchObject({ code: "SERVER_ERROR", status: 502, retryable: false })
      expect(api.requests).toHaveLength(1)
    })

    it("keeps the card token out of the error message even when the service echoes it", async () => {
      api.reply("POST", "/token/transactions", fail(400, "T0002", `token ${CARD_TOKEN} refused for Bearer ${API_TOKEN}`))
      const error = (await api.client.tokenCharges.create(TOKEN_INPUT).catch((e: unknown) => e)) as Error
      expect(error).toBeInstanceOf(DeclinedError)
      expect(error.message).toContain("T0002")
      expect(error.message).not.toContain(CARD_TOKEN)
      expect(error.message).not.toContain(API_TOKEN)
      expect(error.message).toContain("[REDACTED]")
    })
  })

  describe("tokenSubscriptions.create (POST /token/subscriptions)", () => {
    it("charges the first period now when startDate is omitted", async () => {
      api.reply("POST", "/token/subscriptions", ok({ subscriptionId: SUB_HID, transactionId: TX_ID, authCode: "A77002" }))
      const input = { ...TOKEN_INPUT, numberOfPeriods: 12, paymentInterval: 1 }
      const result = await api.client.tokenSubscriptions.create(input)
      expect(expectJsonPost("/token/subscriptions").body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result).toEqual({ subscriptionId: SUB_HID, transactionId: TX_ID, authCode: "A77002" })
    })

    it("only schedules when a future startDate is given (no transaction yet)", async () => {
      api.reply("POST", "/token/subscriptions", ok({ subscriptionId: SUB_HID }))
      const input = { ...TOKEN_INPUT, startDate: "2026/11/23" }
      const result = await api.client.tokenSubscriptions.create(input)
      expect(expectJsonPost("/token/subscriptions").body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result).toEqual({ subscriptionId: SUB_HID })
    })

    it.each(["T0001", "T0003", "T0005"])("400 %s (first period failed) -> DeclinedError", async (code) => {
      api.reply("POST", "/token/subscriptions", fail(400, code, "declined"))
      const error = await api.client.tokenSubscriptions.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(DeclinedError)
      expect(error).toMatchObject({ code, status: 400 })
    })

    it("400 V0001 -> InvalidRequestError", async () => {
      api.reply("POST", "/token/subscriptions", fail(400, "V0001", "START_DATE_MUST_GREATER_THAN_TODAY"))
      const error = await api.client.tokenSubscriptions.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: "V0001", variant: "START_DATE_MUST_GREATER_THAN_TODAY" })
    })

    it("401 A0001 -> AuthenticationError", async () => {
      api.reply("POST", "/token/subscriptions", fail(401, "A0001", "unauthorized"))
      await expect(api.client.tokenSubscriptions.create(TOKEN_INPUT)).rejects.toBeInstanceOf(AuthenticationError)
    })

    it("409 C026 -> UnknownOutcomeError, not retryable, sent once", async () => {
      api.reply("POST", "/token/subscriptions", fail(409, "C026", "result unknown", { retryable: false }), 2)
      const error = await api.client.tokenSubscriptions.create(TOKEN_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(error).toMatchObject({ code: "C026", status: 409, retryable: false })
      expect(api.requests).toHaveLength(1)
    })
  })
})
