import { completionOf, refusalOf } from "../src/core/cart-completion.js"
import { answerOfError, storeError } from "../src/core/store-answer.js"
import type { StoreSession } from "../src/core/store-session.js"

const order = { id: "order_1", display_id: 7 }
const cart = { id: "cart_1", total: 1360 }

describe("completionOf: what an answer of the cart's completion means", () => {
  it("200 order: the order", () => {
    expect(completionOf({ status: 200, body: { type: "order", order } })).toEqual({ kind: "order", order })
  })

  it("200 cart: core's answer the official starter drops, kept with its error", () => {
    const error = { message: "Payment authorization failed", name: "Error", type: "payment_authorization_error" }
    expect(completionOf({ status: 200, body: { type: "cart", cart, error } })).toEqual({ kind: "cart", cart, error })
    expect(completionOf({ status: 200, body: { type: "cart", cart } })).toMatchObject({ kind: "cart", cart, error: { message: expect.any(String) } })
  })

  it("409 payment_pending: the plugin's saved-card charge not confirmed yet, with its session", () => {
    const body = { type: "payment_pending", code: "payment_pending", message: "Your payment is being confirmed.", payment_session_id: "payses_1" }
    expect(completionOf({ status: 409, body })).toEqual({ kind: "payment_pending", paymentSessionId: "payses_1", message: "Your payment is being confirmed." })
  })

  it("400 with a code: declined, keeping the server's code and message", () => {
    const body = { type: "not_allowed", code: "card_declined_t0001", message: "Your card •••• 0019 was declined (T0001)." }
    expect(completionOf({ status: 400, body })).toEqual({ kind: "declined", code: "card_declined_t0001", message: body.message })
  })

  it("anything else is none of the cases", () => {
    expect(completionOf({ status: 400, body: { type: "invalid_data", message: "No shipping method" } })).toBeUndefined()
    expect(completionOf({ status: 409, body: { code: "invalid_state_error", message: "The request conflicted with another request." } })).toBeUndefined()
    expect(completionOf({ status: 500, body: { code: "unknown_error", message: "An unknown error occurred." } })).toBeUndefined()
    expect(completionOf({ status: 200, body: { type: "order" } })).toBeUndefined()
    expect(completionOf({ status: 200, body: "<html>" })).toBeUndefined()
  })
})

describe("refusalOf: a refusal whose body the js-sdk dropped, told by a fresh read of the cart's sessions", () => {
  const hosted = (status: string, data: Record<string, unknown> = {}): StoreSession => ({ id: "payses_h", provider_id: "pp_hosted-checkout_hosted-checkout", status, data })
  const card = (status: string, data: Record<string, unknown> = {}): StoreSession => ({ id: "payses_c", provider_id: "pp_embedded-card_embedded-card", status, data })
  const savedCard = { savedCard: { id: "twcard_1", last4: "0019" } }
  const refused = (status: number, message = "Refused") => ({ status, body: { message } })

  it("409 with a saved card's charge still open: payment_pending with that session", () => {
    expect(refusalOf(refused(409, "Being confirmed"), [hosted("pending", savedCard)])).toEqual({ kind: "payment_pending", paymentSessionId: "payses_h", message: "Being confirmed" })
  })

  it("409 otherwise: core's conflict (the notification completing the same cart), none of the cases", () => {
    expect(refusalOf(refused(409), [hosted("requires_more")])).toBeUndefined()
    expect(refusalOf(refused(409), [hosted("authorized", savedCard)])).toBeUndefined()
  })

  it("400: declined, with the shopper code the provider's read recorded", () => {
    expect(refusalOf(refused(400), [card("error", { lastPaymentError: "CARD_DECLINED", errorCode: "card_declined" })])).toEqual({ kind: "declined", code: "card_declined", message: "Refused" })
    expect(refusalOf(refused(400), [hosted("error", { errorCode: "payment_page_expired" })])).toEqual({ kind: "declined", code: "payment_page_expired", message: "Refused" })
  })

  it("400 on a saved card's charge: card_declined; on an unpaid session: payment_not_completed", () => {
    expect(refusalOf(refused(400, "Your card was declined."), [hosted("pending", savedCard)])).toEqual({ kind: "declined", code: "card_declined", message: "Your card was declined." })
    expect(refusalOf(refused(400), [card("requires_more")])).toEqual({ kind: "declined", code: "payment_not_completed", message: "Refused" })
  })

  it("400 with no payment of the plugin refused: none of the cases", () => {
    expect(refusalOf(refused(400), [])).toBeUndefined()
    expect(refusalOf(refused(400), [{ id: "payses_s", provider_id: "pp_system_default", status: "error" }])).toBeUndefined()
    expect(refusalOf(refused(500), [card("error", { errorCode: "card_declined" })])).toBeUndefined()
  })
})

describe("store errors", () => {
  it("a js-sdk FetchError keeps its status and message; a code or body it carries is kept too", () => {
    const fetchError = Object.assign(new Error("Cart not found"), { status: 404, statusText: "Not Found" })
    expect(answerOfError(fetchError)).toEqual({ status: 404, body: { message: "Cart not found" } })
    expect(answerOfError(Object.assign(new Error("Declined"), { status: 400, code: "card_declined" }))).toEqual({ status: 400, body: { message: "Declined", code: "card_declined" } })
    const body = { code: "payment_pending", message: "Pending", payment_session_id: "payses_1" }
    expect(answerOfError(Object.assign(new Error("Pending"), { status: 409, body }))).toEqual({ status: 409, body })
  })

  it("no answer (a network failure) is not a store answer", () => {
    expect(answerOfError(new TypeError("Failed to fetch"))).toBeUndefined()
    expect(answerOfError("boom")).toBeUndefined()
  })

  it("an error answer becomes a TwPaymentError with the server's code, message and status", () => {
    const error = storeError({ status: 400, body: { type: "not_allowed", code: "cart_not_yours", message: "This cart is not yours." } })
    expect({ name: error.name, code: error.code, status: error.status, message: error.message }).toEqual({ name: "TwPaymentError", code: "cart_not_yours", status: 400, message: "This cart is not yours." })
    expect(storeError({ status: 502, body: "Bad gateway" })).toMatchObject({ code: undefined, status: 502, message: "The store answered 502." })
  })
})
