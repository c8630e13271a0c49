import { Attestor } from "../../core/attestation"
import { namedSavedCard, savedCardRequest } from "../saved-card-charge-data"
import { parseStorefrontData } from "../hosted-checkout-session-data"
import { heldSession, openingSession } from "../session-kind"
import { initiateSavedCard } from "../sessions/saved-card-session"
import { sealSubscriptionTerms, SUBSCRIPTION_CONTEXT_KEY, type SubscriptionTerms } from "../subscription-terms"

const attestor = new Attestor("sandbox-hosted-token-demo-shop-0001")
const customer = { id: "cus_1", email: "lin@example.test" }
const holder = { external_id: "cus_1", data: { tw_saved_cards: [{ id: "twcard_1", last4: "4242", card_label: null, bound_at: null, created_at: null }] } }
const context = { customer, account_holder: holder }
/** What Medusa's subscription recipe sends (Stripe's keys), with the id `listPaymentMethods` returned. */
const recipe = { payment_method: "twcard_1", off_session: true, confirm: true, capture_method: "automatic" as const }

describe("Medusa's recipe keys: mapped to the plugin's saved card in one place", () => {
  it("payment_method with off_session is the saved card, charged when the session is authorized", () => {
    expect(savedCardRequest(recipe)).toEqual({ id: "twcard_1", offSession: true })
    expect(savedCardRequest({ payment_method: "twcard_1" })).toEqual({ id: "twcard_1", offSession: false })
    expect(savedCardRequest({ payment_method: "twcard_1", off_session: false })).toEqual({ id: "twcard_1", offSession: false })
    expect(savedCardRequest({ payment_method: "twcard_1", capture_method: "automatic_async", confirm: false, off_session: true })).toEqual({ id: "twcard_1", offSession: true })
  })

  it("the storefront's savedCardId is the same card, at the cart's completion unless off_session", () => {
    expect(savedCardRequest({ savedCardId: "twcard_1" })).toEqual({ id: "twcard_1", offSession: false })
    expect(savedCardRequest({ savedCardId: "twcard_1", off_session: true })).toEqual({ id: "twcard_1", offSession: true })
    expect(savedCardRequest({ savedCardId: "twcard_1", payment_method: "twcard_1" })).toEqual({ id: "twcard_1", offSession: false })
    expect(savedCardRequest({})).toBeUndefined()
  })

  it("refuses two different cards, a manual capture, and the recipe's keys without a card", () => {
    expect(() => savedCardRequest({ savedCardId: "twcard_1", payment_method: "twcard_2" })).toThrow("Invalid payment session data (savedCardId and payment_method name two different cards)")
    expect(() => savedCardRequest({ ...recipe, capture_method: "manual" })).toThrow(/capture_method: "manual" is not possible/)
    expect(() => savedCardRequest({ off_session: true, confirm: true })).toThrow("Invalid payment session data (off_session, confirm: only with payment_method, the id of a saved card that listPaymentMethods returned)")
    try {
      savedCardRequest({ capture_method: "automatic" })
      throw new Error("not refused")
    } catch (error) {
      expect(error).toMatchObject({ type: "invalid_data", code: "payment_data_invalid" })
    }
  })

  it("the whitelist takes the recipe's keys, and only a saved card's id as payment_method", () => {
    expect(parseStorefrontData({ session_id: "payses_1", ...recipe })).toEqual({ session_id: "payses_1", ...recipe })
    expect(() => parseStorefrontData({ session_id: "payses_1", payment_method: "pm_1234" })).toThrow("payment_method: must be a saved card id (twcard_…) from listPaymentMethods")
    expect(() => parseStorefrontData({ session_id: "payses_1", ...recipe, off_session: "yes" })).toThrow(/off_session/)
    expect(() => parseStorefrontData({ session_id: "payses_1", ...recipe, setup_future_usage: "off_session" })).toThrow(/setup_future_usage/)
  })

  it("opens a saved-card session off session; its stored data says so, and it waits for its charge at authorization", () => {
    const opening = openingSession(attestor, { data: { session_id: "payses_1", ...recipe }, context })
    expect(opening).toMatchObject({ kind: "saved-card", card: { id: "twcard_1", offSession: true }, terms: undefined })
    if (opening.kind !== "saved-card") {
      throw new Error("not a saved-card session")
    }
    const { data, status } = initiateSavedCard(640, opening.input, opening.card, opening.terms, context)
    expect(status).toBe("pending")
    expect(data).toMatchObject({ session_id: "payses_1", savedCard: { id: "twcard_1", last4: "4242" }, amount: 640, offSession: true })
    // Medusa stores the caller's data merged with the provider's.
    const stored = { session_id: "payses_1", ...recipe, ...data }
    expect(heldSession(stored)).toEqual({ kind: "uncharged-saved-card", offSession: true })
    expect(heldSession({ session_id: "payses_2", savedCard: { id: "twcard_1", last4: "4242" }, amount: 640 })).toEqual({ kind: "uncharged-saved-card", offSession: false })
    expect(heldSession({ ...stored, transactionId: "tx_1" })).toEqual({ kind: "transaction" })
  })

  it("checks the card against the session's customer, as for savedCardId: another customer's method is refused", () => {
    const other = openingSession(attestor, { data: { session_id: "payses_1", ...recipe, payment_method: "twcard_9" }, context })
    if (other.kind !== "saved-card") {
      throw new Error("not a saved-card session")
    }
    expect(() => initiateSavedCard(640, other.input, other.card, other.terms, context)).toThrow("Saved card twcard_9 is not an active saved card of this customer.")
    expect(() => initiateSavedCard(640, other.input, { id: "twcard_1", offSession: true }, undefined, { account_holder: holder })).toThrow(/logged-in customer/)
  })

  it("a subscription's checkout is not paid off session", () => {
    const terms: SubscriptionTerms = { subscription_id: "twsub_1", customer_id: "cus_1", kind: "monthly", interval_months: 1, periods: null, start_date: null, amount: 640 }
    const opening = openingSession(attestor, { data: { session_id: "payses_1", ...recipe }, context: { ...context, [SUBSCRIPTION_CONTEXT_KEY]: sealSubscriptionTerms(attestor, terms) } as never })
    if (opening.kind !== "saved-card") {
      throw new Error("not a saved-card session")
    }
    expect(() => initiateSavedCard(640, opening.input, opening.card, opening.terms, context)).toThrow(/subscription checkout is completed with the cart, not off session/)
  })

  it("the store middleware's question: which key names a card, before any check", () => {
    expect(namedSavedCard({ savedCardId: "twcard_1" })).toEqual({ key: "savedCardId", value: "twcard_1" })
    expect(namedSavedCard({ payment_method: "pm_123", off_session: true })).toEqual({ key: "payment_method", value: "pm_123" })
    expect(namedSavedCard({ savedCardId: 5, payment_method: "twcard_1" })).toEqual({ key: "savedCardId", value: 5 })
    expect(namedSavedCard({ off_session: true })).toBeUndefined()
    expect(namedSavedCard(undefined)).toBeUndefined()
  })
})
