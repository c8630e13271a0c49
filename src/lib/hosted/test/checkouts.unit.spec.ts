import {
  AuthenticationError,
  ForbiddenError,
  InvalidRequestError,
  PaymentServiceError,
  UnknownOutcomeError,
} from "../../http"
import { API_TOKEN, CHECKOUT_HOST, CHECKOUT_INPUT, fail, MERCHANT, mockApi, NOW, ok, SUB_HID, TX_HID, TX_ID } from "./mock-api"

describe("checkouts", () => {
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
    expect(req.method).toBe("POST")
    expect(req.path).toBe(`/api${path}`)
    expect(req.headers.authorization).toBe(`Bearer ${API_TOKEN}`)
    expect(req.headers["content-type"]).toBe("application/json")
    return req
  }

  describe("create (POST /checkout)", () => {
    it("sends the body with the client's merchantId and returns ids plus the 5-minute page", async () => {
      api.reply("POST", "/checkout", ok({ id: TX_ID, transactionHid: TX_HID }))
      const input = { ...CHECKOUT_INPUT, allowedPaymentMethods: ["card", "cvs", "atm"] as const, customId: "payses_01" }
      const result = await api.client.checkouts.create({ ...input, allowedPaymentMethods: [...input.allowedPaymentMethods] })

      const req = expectJsonPost("/checkout")
      expect(req.body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result).toEqual({
        id: TX_ID,
        transactionHid: TX_HID,
        page: { url: `${CHECKOUT_HOST}/checkout/${TX_ID}`, expiresAt: new Date(NOW.getTime() + 5 * 60_000) },
      })
      // The page is added to the parsed answer, which keeps its non-enumerable exchange details.
      expect(result.lastResponse).toEqual({ status: 200, attempts: 1, idempotencyReplayed: false })
      expect(Object.keys(result)).not.toContain("lastResponse")
    })

    it("accepts null redirect addresses and sends the keys as null", async () => {
      api.reply("POST", "/checkout", ok({ id: TX_ID, transactionHid: TX_HID }))
      await api.client.checkouts.create({ ...CHECKOUT_INPUT, successUrl: null, failureUrl: null })
      const body = expectJsonPost("/checkout").body as Record<string, unknown>
      expect(body).toHaveProperty("successUrl", null)
      expect(body).toHaveProperty("failureUrl", null)
    })

    it("accepts a merchantId equal to the configured one", async () => {
      api.reply("POST", "/checkout", ok({ id: TX_ID, transactionHid: TX_HID }))
      await api.client.checkouts.create({ ...CHECKOUT_INPUT, merchantId: MERCHANT })
      expect((expectJsonPost("/checkout").body as { merchantId: string }).merchantId).toBe(MERCHANT)
    })

    it.each([
      ["V0001", 400, "PRODUCT_AMOUNT_NOT_MATCH", "PRODUCT_AMOUNT_NOT_MATCH"],
      ["V0001", 400, "Validation failed: USER_NAME_AND_EMAIL_REQUIRED, INVALID_CARRIER_ID", "USER_NAME_AND_EMAIL_REQUIRED"],
      ["V0001", 400, "LINE_PAY_NOT_ACTIVE", "LINE_PAY_NOT_ACTIVE"],
      ["V0001", 400, "INVALID_TAX_ID_NUMBER", "INVALID_TAX_ID_NUMBER"],
      ["V0001", 400, "merchantId does not match token", undefined],
      ["V0002", 400, "PAYMENT_SERVICE_NOT_ACTIVATE", "PAYMENT_SERVICE_NOT_ACTIVATE"],
    ])("%s %s '%s' -> InvalidRequestError variant %s", async (code, status, message, variant) => {
      api.reply("POST", "/checkout", fail(status, code, message))
      const error = await api.client.checkouts.create(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error).toMatchObject({ code, status, variant, retryable: false })
      expect((error as Error).message).toContain("POST /checkout")
    })

    it("K0001 -> InvalidRequestError carrying detail", async () => {
      const detail = { threshold: 50000, amount: 1200 }
      api.reply("POST", "/checkout", fail(400, "K0001", "risk control", { detail }))
      const error = await api.client.checkouts.create(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidRequestError)
      expect(error).toMatchObject({ code: "K0001", status: 400, detail, retryable: false })
    })

    it("A0001 -> AuthenticationError", async () => {
      api.reply("POST", "/checkout", fail(401, "A0001", "token invalid"))
      const error = await api.client.checkouts.create(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AuthenticationError)
      expect(error).toMatchObject({ code: "A0001", status: 401, retryable: false })
    })

    it("403 with only a message -> ForbiddenError FORBIDDEN", async () => {
      api.reply("POST", "/checkout", { status: 403, body: { message: "Forbidden" } })
      const error = await api.client.checkouts.create(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ForbiddenError)
      expect(error).toMatchObject({ code: "FORBIDDEN", status: 403, retryable: false })
    })

    it("500 F0001 -> UnknownOutcomeError, sent exactly once", async () => {
      api.reply("POST", "/checkout", fail(500, "F0001", "system error"), 3)
      const error = await api.client.checkouts.create(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnknownOutcomeError)
      expect(error).toMatchObject({ code: "F0001", status: 500, retryable: false })
      expect(api.requests).toHaveLength(1)
    })
  })

  describe("createSubscription (POST /checkout-subscription)", () => {
    it("sends the body and returns ids plus the subscription page", async () => {
      api.reply("POST", "/checkout-subscription", ok({ id: TX_ID, transactionHid: TX_HID }))
      const input = { ...CHECKOUT_INPUT, numberOfPeriods: 12, use3d: true }
      const result = await api.client.checkouts.createSubscription(input)
      expect(expectJsonPost("/checkout-subscription").body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result.page).toEqual({
        url: `${CHECKOUT_HOST}/checkout/subscription/${TX_ID}`,
        expiresAt: new Date(NOW.getTime() + 5 * 60_000),
      })
      expect(result.transactionHid).toBe(TX_HID)
    })

    it.each([
      [400, "V0001", InvalidRequestError],
      [400, "V0002", InvalidRequestError],
      [401, "A0001", AuthenticationError],
    ])("%s %s -> %p", async (status, code, type) => {
      api.reply("POST", "/checkout-subscription", fail(status, code, "refused"))
      const error = await api.client.checkouts.createSubscription(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(type)
      expect(error).toMatchObject({ code, status })
    })
  })

  describe("createSchedule (POST /checkout-schedule)", () => {
    it("sends the body and returns the id, subscription number and schedule page", async () => {
      api.reply("POST", "/checkout-schedule", ok({ id: TX_ID, subscriptionHid: SUB_HID }))
      const input = { ...CHECKOUT_INPUT, numberOfPeriods: 6, paymentInterval: 3, startDate: "2026/12/01" }
      const result = await api.client.checkouts.createSchedule(input)
      expect(expectJsonPost("/checkout-schedule").body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result).toEqual({
        id: TX_ID,
        subscriptionHid: SUB_HID,
        page: { url: `${CHECKOUT_HOST}/checkout/schedule/${TX_ID}`, expiresAt: new Date(NOW.getTime() + 5 * 60_000) },
      })
    })

    it("sends a null startDate (meaning today) as null", async () => {
      api.reply("POST", "/checkout-schedule", ok({ id: TX_ID, subscriptionHid: SUB_HID }))
      await api.client.checkouts.createSchedule({ ...CHECKOUT_INPUT, startDate: null })
      expect(expectJsonPost("/checkout-schedule").body).toHaveProperty("startDate", null)
    })

    it.each([
      [400, "V0001", "START_DATE_MUST_GREATER_THAN_TODAY", InvalidRequestError],
      [400, "V0001", "START_DATE_MUST_LESS_THAN_12_MONTHS", InvalidRequestError],
      [400, "V0001", "PRODUCT_AMOUNT_NOT_MATCH", InvalidRequestError],
      [400, "K0001", "RISK_CONTROL", InvalidRequestError],
      [401, "A0001", undefined, AuthenticationError],
    ])("%s %s %s -> %p", async (status, code, variant, type) => {
      api.reply("POST", "/checkout-schedule", fail(status, code, variant ?? "unauthorized"))
      const error = await api.client.checkouts.createSchedule(CHECKOUT_INPUT).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(type)
      expect(error).toMatchObject({ code, status })
      if (type === InvalidRequestError) expect((error as InvalidRequestError).variant).toBe(variant)
    })
  })

  describe("createCardBinding (POST /checkout-token)", () => {
    it("sends the binding body and returns the id and the 10-minute binding page", async () => {
      api.reply("POST", "/checkout-token", ok({ id: TX_ID }))
      const input = {
        successUrl: "https://store.example.com/cards/done",
        failureUrl: "https://store.example.com/cards/failed",
        customId: "cus_01JD7K",
        payerEmail: "buyer@example.com",
      }
      const result = await api.client.checkouts.createCardBinding(input)
      expect(expectJsonPost("/checkout-token").body).toEqual({ merchantId: MERCHANT, ...input })
      expect(result).toEqual({
        id: TX_ID,
        page: {
          url: `${CHECKOUT_HOST}/checkout/subscription/create/${TX_ID}`,
          expiresAt: new Date(NOW.getTime() + 10 * 60_000),
        },
      })
    })

    it.each([
      [400, "V0001", InvalidRequestError],
      [401, "A0001", AuthenticationError],
    ])("%s %s -> %p", async (status, code, type) => {
      api.reply("POST", "/checkout-token", fail(status, code, "refused"))
      const error = await api.client.checkouts
        .createCardBinding({ successUrl: null, failureUrl: null })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(type)
      expect(error).toBeInstanceOf(PaymentServiceError)
      expect(error).toMatchObject({ code, status })
    })
  })
})
