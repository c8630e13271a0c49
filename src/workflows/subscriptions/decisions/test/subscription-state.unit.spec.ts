import type { Subscription, Transaction } from "../../../../lib/hosted"
import { type KeptSubscription, needsFirstOrder, observeSubscription, serviceStateRecord, stablePeriods, subscriptionActions, type StoredSubscription } from "../subscription-state"

let seq = 0
const tx = (status: Transaction["status"], changes: Partial<Transaction> = {}): Transaction => {
  seq += 1
  return {
    id: `t${String(seq).padStart(26, "0")}`,
    transactionHid: `P20260101${String(seq).padStart(8, "0")}`,
    merchantId: "demo-shop",
    status,
    amount: 500,
    createdAt: new Date(Date.UTC(2026, 0, seq)).toISOString(),
    ...(status === "charged" ? { paidAt: new Date(Date.UTC(2026, 0, seq)).toISOString(), paymentInfo: "4242" } : {}),
    ...changes,
  }
}
const service = (status: Subscription["status"], changes: Record<string, unknown> = {}) => ({ id: "S2026010100000001", status, ...changes }) as Subscription

describe("observeSubscription: periods counted from the checkout's transactions", () => {
  it("each paid transaction closes one period, oldest first, whatever order the list comes in", () => {
    const [a, b, c] = [tx("charged"), tx("charged"), tx("charged")]
    const seen = observeSubscription(500, [c, a, b], service("active", { nextChargeAt: "2026-04-01T01:00:00.000Z" }))
    expect(seen.periods.map((p) => [p.period, p.status, p.transactionId])).toEqual([
      [1, "paid", a.id],
      [2, "paid", b.id],
      [3, "paid", c.id],
    ])
    expect(seen).toMatchObject({ status: "active", periodsCharged: 3, cardLast4: "4242", nextChargeAt: new Date("2026-04-01T01:00:00.000Z") })
  })

  it("a failed attempt then a paid retry is one period with two attempts", () => {
    const seen = observeSubscription(500, [tx("charged"), tx("failed"), tx("charged")], service("active"))
    expect(seen.periods.map((p) => [p.period, p.status, p.attempts])).toEqual([
      [1, "paid", 1],
      [2, "paid", 2],
    ])
  })

  it("a failure being retried is a retrying period; retries used up is a failed one and the subscription stopped", () => {
    const retrying = observeSubscription(500, [tx("charged"), tx("failed")], service("retrying", { nextChargeAt: "2026-02-03T01:00:00.000Z" }))
    expect(retrying.periods[1]).toMatchObject({ period: 2, status: "retrying", attempts: 1 })
    expect(retrying.nextChargeAt).toEqual(new Date("2026-02-03T01:00:00.000Z"))
    const stopped = observeSubscription(500, [tx("charged"), tx("failed"), tx("failed"), tx("failed"), tx("failed")], service("error"))
    expect(stopped.status).toBe("stopped")
    expect(stopped.periods[1]).toMatchObject({ period: 2, status: "failed", attempts: 4 })
    expect(stopped.nextChargeAt).toBeNull()
  })

  it("a refunded period stays paid; unpaid pages and other amounts are no periods", () => {
    const seen = observeSubscription(500, [tx("refunded", { paidAt: "2026-01-01T00:00:00Z" }), tx("initiated"), tx("charged", { amount: 900 })], service("active"))
    expect(seen.periods).toHaveLength(1)
    expect(seen.ignored).toHaveLength(1)
  })

  it.each([
    ["pending", "pending"],
    ["trialing", "pending_first_charge"],
    ["completed", "completed"],
    ["cancelled", "cancelled"],
  ] as const)("service status %s is %s", (from, to) => {
    expect(observeSubscription(500, [], service(from)).status).toBe(to)
  })

  it("without the S number, paid transactions still give the periods", () => {
    expect(observeSubscription(500, [tx("charged")], undefined)).toMatchObject({ status: "active", periodsCharged: 1 })
  })
})

describe("subscriptionActions: one order per paid period", () => {
  const stored = (changes: Partial<StoredSubscription> = {}): StoredSubscription => ({
    kind: "monthly",
    firstChargeLater: false,
    firstOrder: { id: "order_1", status: "pending", paid: true },
    ordered: new Set([1]),
    ...changes,
  })
  const seen = (...statuses: Transaction["status"][]) => observeSubscription(500, statuses.map((s) => tx(s)), service("active"))

  it("renewal orders for paid periods without one, none twice", () => {
    const actions = subscriptionActions(seen("charged", "charged", "charged"), stored({ ordered: new Set([1, 2]) }))
    expect(actions).toEqual([{ kind: "renewal-order", period: expect.objectContaining({ period: 3 }) }])
    expect(subscriptionActions(seen("charged", "charged"), stored({ ordered: new Set([1, 2]) }))).toEqual([])
  })

  it("no renewal before the first order exists, none for failed periods", () => {
    expect(subscriptionActions(seen("charged", "charged"), stored({ firstOrder: undefined }))).toEqual([])
    expect(subscriptionActions(seen("charged", "failed"), stored())).toEqual([])
  })

  it("a later first charge: paid captures the awaiting first order; stopped unpaid cancels it", () => {
    const awaiting = stored({ kind: "scheduled", firstChargeLater: true, firstOrder: { id: "order_1", status: "pending", paid: false }, ordered: new Set() })
    expect(subscriptionActions(seen("charged"), awaiting)).toEqual([{ kind: "capture-first-order", period: expect.objectContaining({ period: 1 }) }])
    expect(subscriptionActions(observeSubscription(500, [tx("failed")], service("error")), awaiting)).toEqual([{ kind: "cancel-first-order" }])
    expect(subscriptionActions(observeSubscription(500, [tx("failed")], service("retrying")), awaiting)).toEqual([])
    expect(subscriptionActions(observeSubscription(500, [], service("trialing")), awaiting)).toEqual([])
  })

  describe("a subscription the store ended (I3)", () => {
    const endedAt = new Date(Date.UTC(2027, 0, 1))
    const before = (changes: Partial<Transaction> = {}) => tx("charged", { paidAt: new Date(endedAt.getTime() - 1000).toISOString(), ...changes })
    const after = (changes: Partial<Transaction> = {}) => tx("charged", { paidAt: new Date(endedAt.getTime() + 1000).toISOString(), ...changes })

    it("still charging at the service: cancelled there", () => {
      for (const status of ["active", "retrying", "trialing"] as const) {
        expect(subscriptionActions(observeSubscription(500, [before()], service(status)), stored({ endedAt }))).toContainEqual({ kind: "cancel-at-service" })
      }
      for (const status of ["cancelled", "completed", "error"] as const) {
        expect(subscriptionActions(observeSubscription(500, [before()], service(status)), stored({ endedAt }))).toEqual([])
      }
    })

    it("cancelled before its page was paid: the page's money is returned, no order placed", () => {
      const actions = subscriptionActions(observeSubscription(500, [after()], service("active")), stored({ endedAt, firstOrder: undefined, ordered: new Set() }))
      expect(actions).toEqual([{ kind: "cancel-at-service" }, { kind: "refund-period", period: expect.objectContaining({ period: 1 }) }])
    })

    it("a period paid before the end still gets its renewal order; one that slipped through after it is refunded; a refunded one is left alone", () => {
      const actions = subscriptionActions(observeSubscription(500, [before(), before(), after(), after({ status: "refunded", refundAmount: 500 })], service("cancelled")), stored({ endedAt }))
      expect(actions).toEqual([
        { kind: "renewal-order", period: expect.objectContaining({ period: 2 }) },
        { kind: "refund-period", period: expect.objectContaining({ period: 3 }) },
      ])
    })

    it("a later first charge that was ended: the awaiting order is cancelled, and once it is, period 1 is refunded", () => {
      const awaiting = stored({ kind: "scheduled", firstChargeLater: true, firstOrder: { id: "order_1", status: "pending", paid: false }, ordered: new Set(), endedAt })
      const read = observeSubscription(500, [after()], service("active"))
      expect(subscriptionActions(read, awaiting)).toEqual([{ kind: "cancel-at-service" }, { kind: "cancel-first-order" }])
      expect(subscriptionActions(read, { ...awaiting, firstOrder: { id: "order_1", status: "canceled", paid: false } })).toEqual([
        { kind: "cancel-at-service" },
        { kind: "refund-period", period: expect.objectContaining({ period: 1 }) },
      ])
    })
  })
})

describe("stablePeriods: a paid transaction keeps its period (I5)", () => {
  const kept = (period: number, t: Transaction, status: "paid" | "failed" | "retrying" = "paid") => ({ period, status, transaction_id: t.id })

  it("numbers as observed when nothing is kept, and as kept on the next read", () => {
    const [a, b] = [tx("charged"), tx("charged")]
    const first = observeSubscription(500, [a, b], service("active")).periods
    expect(stablePeriods(first, []).map((p) => [p.period, p.transactionId])).toEqual([
      [1, a.id],
      [2, b.id],
    ])
    expect(stablePeriods(first, [kept(1, a), kept(2, b)])).toEqual(first)
  })

  it("a transaction that appears late, older than the kept ones, gets the next free number; none shifts", () => {
    const [a, late, b] = [tx("charged"), tx("charged"), tx("charged")]
    const periods = stablePeriods(observeSubscription(500, [a, late, b], service("active")).periods, [kept(1, a), kept(2, b)])
    expect(periods.map((p) => [p.period, p.transactionId])).toEqual([
      [1, a.id],
      [3, late.id],
      [2, b.id],
    ])
  })

  it("a failed attempt's period is the same period when it is paid on retry", () => {
    const [a, failed, retried] = [tx("charged"), tx("failed"), tx("charged")]
    const periods = stablePeriods(observeSubscription(500, [a, failed, retried], service("active")).periods, [kept(1, a), kept(2, failed, "retrying")])
    expect(periods.map((p) => [p.period, p.status, p.transactionId])).toEqual([
      [1, "paid", a.id],
      [2, "paid", retried.id],
    ])
  })

  it("never gives two periods one number", () => {
    const [a, b, c] = [tx("charged"), tx("charged"), tx("charged")]
    const periods = stablePeriods(observeSubscription(500, [a, b, c], service("active")).periods, [kept(1, a), kept(2, c), kept(3, b)])
    expect(new Set(periods.map((p) => p.period)).size).toBe(3)
    expect(periods.find((p) => p.transactionId === c.id)?.period).toBe(2)
  })
})

describe("serviceStateRecord: what one read writes", () => {
  const now = new Date(Date.UTC(2027, 5, 1))
  const row = (changes: Partial<KeptSubscription> = {}): KeptSubscription => ({
    id: "twsub_1",
    status: "active",
    service_subscription_id: "S2026010100000001",
    first_order_id: "order_1",
    cancelled_at: null,
    cancel_reason: null,
    ...changes,
  })
  const firstOrder = { id: "order_1", status: "pending", paid: true }
  const read = { hid: "S2026010100000001", hasCheckout: true }

  it("the service's state, one row per period, period 1 naming the first order", () => {
    const seen = observeSubscription(500, [tx("charged"), tx("charged")], service("active", { nextChargeAt: "2027-07-01T01:00:00.000Z" }))
    const record = serviceStateRecord(row(), read, seen, firstOrder, row(), now)
    expect(record.subscription).toEqual({
      id: "twsub_1",
      status: "active",
      service_subscription_id: "S2026010100000001",
      periods_charged: 2,
      next_charge_at: new Date("2027-07-01T01:00:00.000Z"),
      card_last4: "4242",
      first_order_id: "order_1",
      synced_at: now,
    })
    expect(record.periods.map((p) => [p.period, p.status, p.order_id])).toEqual([
      [1, "paid", "order_1"],
      [2, "paid", undefined],
    ])
    expect(record).toMatchObject({ endsNow: undefined, endedAt: undefined })
  })

  it("a local cancel is final: a stale read of an active subscription keeps it cancelled and ended when it was", () => {
    const cancelledAt = "2027-05-01T00:00:00.000Z"
    const kept = row({ status: "cancelled", cancelled_at: cancelledAt, cancel_reason: "Too much tea" })
    const record = serviceStateRecord(kept, read, observeSubscription(500, [tx("charged")], service("active")), firstOrder, kept, now)
    expect(record.subscription.status).toBe("cancelled")
    expect(record.subscription).not.toHaveProperty("cancelled_at")
    expect(record).toMatchObject({ endedAt: new Date(cancelledAt), cancelReason: "Too much tea" })
  })

  it("ends what the store no longer stands for while the service charges (I3): a cancelled first order, a dropped checkout", () => {
    const seen = observeSubscription(500, [tx("charged")], service("active"))
    const cancelledOrder = serviceStateRecord(row(), read, seen, { ...firstOrder, status: "canceled" }, row(), now)
    expect(cancelledOrder).toMatchObject({ endsNow: "Its first order order_1 was cancelled", endedAt: now, cancelReason: "Its first order order_1 was cancelled" })
    expect(cancelledOrder.subscription).toMatchObject({ status: "cancelled", cancelled_at: now, cancel_reason: "Its first order order_1 was cancelled" })
    const dropped = serviceStateRecord(row({ first_order_id: null }), { hasCheckout: false }, seen, undefined, row(), now)
    expect(dropped.endsNow).toMatch(/checkout was replaced or abandoned/)
    expect(dropped.subscription.service_subscription_id).toBe("S2026010100000001")
    // Not charging any more: nothing to end.
    expect(serviceStateRecord(row(), read, observeSubscription(500, [tx("charged")], service("completed")), { ...firstOrder, status: "canceled" }, row(), now).endsNow).toBeUndefined()
  })

  it("cancelled at the service: its date and reason, not the store's", () => {
    const seen = observeSubscription(500, [tx("charged")], service("cancelled", { cancelledAt: "2027-05-20T00:00:00.000Z", reason: "Console" }))
    const record = serviceStateRecord(row(), read, seen, firstOrder, row(), now)
    expect(record.subscription).toMatchObject({ status: "cancelled", cancelled_at: new Date("2027-05-20T00:00:00.000Z"), cancel_reason: "Console" })
    expect(record.endedAt).toBeUndefined()
  })
})

describe("needsFirstOrder", () => {
  it("a paid period or a bound card without an order places it, unless the store ended the subscription", () => {
    const paid = observeSubscription(500, [tx("charged")], service("active"))
    expect(needsFirstOrder({ status: "pending" }, undefined, paid)).toBe(true)
    expect(needsFirstOrder({ status: "pending" }, undefined, observeSubscription(500, [], service("trialing")))).toBe(true)
    expect(needsFirstOrder({ status: "cancelled" }, undefined, paid)).toBe(false)
    expect(needsFirstOrder({ status: "pending" }, { id: "order_1", status: "pending", paid: true }, paid)).toBe(false)
    expect(needsFirstOrder({ status: "pending" }, undefined, observeSubscription(500, [tx("failed")], service("pending")))).toBe(false)
  })
})
