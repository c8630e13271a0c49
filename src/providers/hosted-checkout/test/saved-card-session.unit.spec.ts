import { parseHostedCheckoutOptions } from "../options"
import {
  declineMessage,
  notChargedMessage,
  refusedMessage,
  sessionSavedCard,
  tokenChargeBody,
  tokenSubscriptionBody,
  unavailableMessage,
} from "../saved-card-charge-data"
import { savedCardOfCustomer, updatedSavedCardSession } from "../sessions/saved-card-session"

const options = parseHostedCheckoutOptions({
  apiToken: "sandbox-hosted-token-demo-shop-0001",
  merchantId: "demo-shop",
  apiBaseUrl: "http://127.0.0.1:4010/hosted-api",
  checkoutHost: "http://127.0.0.1:4010",
  storefrontUrl: "http://localhost:8000",
})
const productLine = (amount: number) => ({ productionCode: "ORDER", description: "Order", quantity: 1, unit: "order", unitPrice: amount })
const holder = { external_id: "cus_1", data: { tw_saved_cards: [{ id: "twcard_1", last4: "4242", card_label: null, bound_at: null, created_at: null }], token: "tok_must_not_matter" } }
const customer = { id: "cus_1", email: "lin@example.test", first_name: "Mei", last_name: "Lin" }

describe("saved-card sessions", () => {
  it("take only a card of the customer's account holder, and keep its public facts", () => {
    expect(savedCardOfCustomer("twcard_1", { customer, account_holder: holder })).toEqual({ id: "twcard_1", last4: "4242" })
    expect(() => savedCardOfCustomer("twcard_1", { account_holder: holder })).toThrow(/logged-in customer/)
    expect(() => savedCardOfCustomer("twcard_1", { customer })).toThrow(/logged-in customer/)
    expect(() => savedCardOfCustomer("twcard_2", { customer, account_holder: holder })).toThrow("Saved card twcard_2 is not an active saved card of this customer.")
    // A caller of the payment module may pass another customer's holder: its cards are not this customer's.
    expect(() => savedCardOfCustomer("twcard_1", { customer: { id: "cus_2" }, account_holder: holder })).toThrow("Saved card twcard_1 is not an active saved card of this customer.")
  })

  it("are told apart by their data", () => {
    expect(sessionSavedCard({ savedCard: { id: "twcard_1", last4: "4242" } })).toEqual({ id: "twcard_1", last4: "4242" })
    expect(sessionSavedCard({ savedCard: { id: "tok_1" } })).toBeUndefined()
    expect(sessionSavedCard({ transactionId: "x" })).toBeUndefined()
  })

  it("take a new amount only before the charge, and never for a subscription", () => {
    const data = { savedCard: { id: "twcard_1" }, amount: 500 }
    expect(updatedSavedCardSession(data, 500)).toBe(data)
    expect(updatedSavedCardSession(data, 600)).toEqual({ ...data, amount: 600 })
    expect(() => updatedSavedCardSession({ ...data, transactionId: "tx" }, 600)).toThrow(/after its saved card was charged/)
    expect(() => updatedSavedCardSession({ ...data, subscription: { id: "twsub_1" } }, 600)).toThrow(/subscription checkout again/)
  })

  it("charge under the session id as orderId, without a token until the caller adds it", () => {
    const body = tokenChargeBody({ options, productLine, sessionId: "payses_1", amount: 500, data: {}, customer })
    expect(body).toEqual({ merchantId: "demo-shop", amount: 500, currency: "TWD", orderId: "payses_1", productDetails: [productLine(500)], userId: "cus_1" })
    const later = tokenSubscriptionBody({ options, productLine, sessionId: "payses_2", amount: 900, data: {}, customer }, { interval_months: 3, periods: 4, start_date: "2027/01/05", customer_id: "cus_1" }, true)
    expect(later).toMatchObject({ orderId: "payses_2", paymentInterval: 3, numberOfPeriods: 4, startDate: "2027/01/05", userId: "cus_1" })
    expect(tokenSubscriptionBody({ options, productLine, sessionId: "payses_2", amount: 900, data: {}, customer }, { interval_months: 1, periods: null, start_date: null, customer_id: "cus_1" }, false)).not.toHaveProperty("startDate")
  })

  it("invoice an off-session charge of a customer without a name to their email", () => {
    const invoicing = parseHostedCheckoutOptions({ ...options, einvoice: true })
    const nameless = { id: "cus_3", email: "renewer@example.test" }
    expect(tokenChargeBody({ options: invoicing, productLine, sessionId: "payses_3", amount: 500, data: { offSession: true }, customer: nameless })).toMatchObject({
      userName: "renewer@example.test",
      userEmail: "renewer@example.test",
    })
    // At a cart's completion the shopper can still give a name: it is asked for.
    expect(() => tokenChargeBody({ options: invoicing, productLine, sessionId: "payses_3", amount: 500, data: {}, customer: nameless })).toThrow(/has no name/)
  })

  it("tell the shopper what a decline means, and that nothing was charged", () => {
    const card = { id: "twcard_1", last4: "0019" }
    expect(declineMessage(card, "T0003")).toBe("Your card •••• 0019 was declined (T0003: the card issuer refused the payment). Nothing was charged: pay with another card or another payment method.")
    expect(declineMessage(card, null)).toBe("Your card •••• 0019 was declined. Nothing was charged: pay with another card or another payment method.")
    expect(declineMessage({ id: "twcard_1", last4: null }, "K0001")).toMatch(/^Your saved card could not be charged \(K0001\)\./)
    expect(notChargedMessage(card)).toMatch(/was not charged: the payment service did not confirm the payment/)
    // A card that cannot be used, or a refusal that is not a card decline: no cause, code or option is shown.
    expect(unavailableMessage(card)).toBe("Your card •••• 0019 can no longer be charged. Nothing was charged: pay with another card or another payment method.")
    expect(refusedMessage(card)).toBe("Your card •••• 0019 could not be charged. Nothing was charged: pay with another card or another payment method.")
  })
})
