import { Attestor } from "../../core/attestation"
import {
  awaitsFirstCharge,
  openRenewalTerms,
  openSubscriptionTerms,
  RENEWAL_CONTEXT_KEY,
  type RenewalTerms,
  sealRenewalTerms,
  sealSubscriptionTerms,
  SUBSCRIPTION_CONTEXT_KEY,
  type SubscriptionTerms,
} from "../subscription-terms"
import { renewalPayment } from "../sessions/renewal-session"

const attestor = new Attestor("sandbox-hosted-token-demo-shop-0001")
const terms: SubscriptionTerms = {
  subscription_id: "twsub_1",
  customer_id: "cus_1",
  kind: "scheduled",
  interval_months: 2,
  periods: 6,
  start_date: "2026/12/01",
  amount: 1200,
}

describe("subscription terms: sealed by the store, refused otherwise", () => {
  it("no terms in the context: a one-time payment", () => {
    expect(openSubscriptionTerms(attestor, {})).toBeUndefined()
    expect(openSubscriptionTerms(attestor, undefined)).toBeUndefined()
  })

  it("sealed terms open to themselves", () => {
    expect(openSubscriptionTerms(attestor, { [SUBSCRIPTION_CONTEXT_KEY]: sealSubscriptionTerms(attestor, terms) })).toEqual(terms)
  })

  it.each<[string, (sealed: ReturnType<typeof sealSubscriptionTerms>) => unknown]>([
    ["unsealed", (sealed) => ({ terms: sealed.terms })],
    ["a changed amount", (sealed) => ({ ...sealed, terms: { ...sealed.terms, amount: 1 } })],
    ["a changed interval", (sealed) => ({ ...sealed, terms: { ...sealed.terms, interval_months: 1 } })],
    ["another customer", (sealed) => ({ ...sealed, terms: { ...sealed.terms, customer_id: "cus_2" } })],
    ["sealed with another key", () => sealSubscriptionTerms(new Attestor("another-token"), terms)],
  ])("%s: refused", (_, tamper) => {
    const sealed = sealSubscriptionTerms(attestor, terms)
    expect(() => openSubscriptionTerms(attestor, { [SUBSCRIPTION_CONTEXT_KEY]: tamper(sealed) })).toThrow(/not sealed by this store/)
  })

  it("malformed terms are refused, never taken for a one-time payment", () => {
    expect(() => openSubscriptionTerms(attestor, { [SUBSCRIPTION_CONTEXT_KEY]: { terms: { ...terms, interval_months: 13 } } })).toThrow(/malformed/)
  })

  it("terms sealed more than 10 minutes ago are refused", () => {
    jest.useFakeTimers({ now: Date.now() - 11 * 60_000 })
    const sealed = sealSubscriptionTerms(attestor, terms)
    jest.useRealTimers()
    expect(() => openSubscriptionTerms(attestor, { [SUBSCRIPTION_CONTEXT_KEY]: sealed })).toThrow(/expired/)
  })

  const renewal: RenewalTerms = {
    subscription_id: "twsub_1",
    kind: "monthly",
    transaction_id: "t1",
    period: 2,
    amount: 1200,
    custom_id: "payses_1",
    transaction_hid: "P2026020500000002",
    status: "charged",
    paid_at: "2026-02-05T01:00:02.000Z",
    payment_method: "card",
    payment_info: "4242",
  }

  it("renewal terms are a seal of their own: subscription terms do not pass for them", () => {
    expect(openRenewalTerms(attestor, { [RENEWAL_CONTEXT_KEY]: sealRenewalTerms(attestor, renewal) })).toEqual(renewal)
    const crossed = { terms: renewal, seal: sealSubscriptionTerms(attestor, terms).seal }
    expect(() => openRenewalTerms(attestor, { [RENEWAL_CONTEXT_KEY]: crossed })).toThrow(/not sealed/)
  })

  it("a renewal's sealed read cannot be altered: another status, transaction or missing read is refused", () => {
    const sealed = sealRenewalTerms(attestor, { ...renewal, status: "failed" })
    expect(() => openRenewalTerms(attestor, { [RENEWAL_CONTEXT_KEY]: { ...sealed, terms: { ...sealed.terms, status: "charged" } } })).toThrow(/not sealed/)
    const paid = sealRenewalTerms(attestor, renewal)
    expect(() => openRenewalTerms(attestor, { [RENEWAL_CONTEXT_KEY]: { ...paid, terms: { ...renewal, transaction_id: "t2" } } })).toThrow(/not sealed/)
    const { status: _status, ...unread } = renewal
    expect(() => openRenewalTerms(attestor, { [RENEWAL_CONTEXT_KEY]: { terms: unread, seal: paid.seal } })).toThrow(/malformed/)
  })

  it("a renewal pays only a read that says paid, of the period's amount", () => {
    expect(renewalPayment(renewal, 1200)).toEqual(renewal)
    expect(renewalPayment({ ...renewal, status: "claimed" }, 1200).status).toBe("claimed")
    expect(() => renewalPayment(renewal, 1300)).toThrow(/cannot pay 1300/)
    for (const status of ["failed", "refunded", "initiated", "charging"]) {
      expect(() => renewalPayment({ ...renewal, status }, 1200)).toThrow(/not a paid period/)
    }
  })
})

describe("awaitsFirstCharge", () => {
  const subscription = { id: "twsub_1", kind: "scheduled", checkoutId: "page_1", hid: "S2026010100000001", startDate: "2026/12/01", firstChargeLater: true }
  it("only while the session still holds the page, not a transaction", () => {
    expect(awaitsFirstCharge({ transactionId: "page_1", subscription })).toBeDefined()
    expect(awaitsFirstCharge({ transactionId: "tx_period_1", subscription })).toBeUndefined()
    expect(awaitsFirstCharge({ transactionId: "page_1", subscription: { ...subscription, firstChargeLater: false } })).toBeUndefined()
    expect(awaitsFirstCharge({ transactionId: "page_1" })).toBeUndefined()
  })
})
