import type { Transaction } from "../../../../lib/hosted"
import {
  CHARGE_CODES,
  CHARGE_STALE_MS,
  type ChargeFacts,
  changeAfterUndoneSend,
  planAfterSend,
  planExisting,
  settleFromRead,
  UNKNOWN_GRACE_MS,
} from "../charge-decision"

const card = { id: "twcard_1", last4: "4242" }
const NOW = Date.parse("2026-05-01T00:00:00Z")
const row = (changes: Partial<ChargeFacts> = {}): ChargeFacts => ({
  id: "twchg_1",
  status: "charging",
  code: null,
  transaction_id: null,
  service_order_id: "payses_1",
  amount: 1280,
  created_at: new Date(NOW).toISOString(),
  ...changes,
})
const tx = (status: Transaction["status"]): Transaction => ({ id: "T".repeat(27), transactionHid: "P0001", merchantId: "m1", orderId: "payses_1", status, amount: 1280 })

describe("planAfterSend: what the one send's answer leaves", () => {
  it("a card that cannot be used: declined CARD_UNAVAILABLE, the shopper told it can no longer be charged, no key named", () => {
    const plan = planAfterSend(card, row(), { kind: "unavailable", cause: 'tokenKeys.retired: the key "retired" is not configured' })
    expect(plan).toMatchObject({ change: { status: "declined", code: CHARGE_CODES.unavailable }, read: null })
    expect(plan.outcome).toEqual({ status: "declined", message: expect.stringContaining("can no longer be charged"), code: "saved_card_unavailable" })
    expect(plan.outcome && "message" in plan.outcome ? plan.outcome.message : "").not.toMatch(/retired|tokenKeys/)
  })

  it("a card decline keeps its code; a refusal names no internals", () => {
    expect(planAfterSend(card, row(), { kind: "declined", code: "T0003", cause: "refused" }).outcome).toEqual({ status: "declined", message: expect.stringContaining("T0003"), code: "card_declined_t0003" })
    const refused = planAfterSend(card, row(), { kind: "refused", code: "P0101", cause: "risk control: merchant blocked" })
    expect(refused.change).toEqual({ status: "declined", code: "P0101", message: "risk control: merchant blocked" })
    expect(refused.outcome).toEqual({ status: "declined", message: expect.not.stringMatching(/P0101|risk/), code: "saved_card_refused" })
  })

  it("an unknown outcome is recorded unknown and read, never resent; an unexpected failure stays open without a read", () => {
    const unknown = planAfterSend(card, row(), { kind: "unknown", code: "C026", cause: "C026" })
    expect(unknown).toMatchObject({ change: { status: "unknown", code: "C026" }, outcome: null, read: { row: { status: "unknown" }, hid: null } })
    const failed = planAfterSend(card, row(), { kind: "failed", code: "ERROR", cause: "socket hang up" })
    expect(failed).toMatchObject({ change: { status: "unknown" }, outcome: { status: "unknown" }, read: null })
  })

  it("a charge is read for its transaction; a subscription too, with its S number; a schedule is paid at once", () => {
    expect(planAfterSend(card, row(), { kind: "charged", transaction_hid: "P0001" })).toMatchObject({ change: null, read: { row: { transaction_id: "P0001" } } })
    expect(planAfterSend(card, row(), { kind: "subscribed", subscription_id: "S1", first_charge_on: null }).read).toMatchObject({ hid: "S1" })
    expect(planAfterSend(card, row(), { kind: "subscribed", subscription_id: "S1", first_charge_on: "2026-06-01" })).toMatchObject({
      change: { status: "paid", code: CHARGE_CODES.scheduled },
      outcome: { status: "paid" },
    })
  })

  it("undone after a send: the row never goes back to 'not sent'; a charge or a schedule becomes unknown, a decline stays declined", () => {
    expect(changeAfterUndoneSend(card, row(), { kind: "charged", transaction_hid: "P1" })).toMatchObject({ status: "unknown" })
    expect(changeAfterUndoneSend(card, row(), { kind: "subscribed", subscription_id: "S1", first_charge_on: "2026-06-01" })).toMatchObject({ status: "unknown" })
    expect(changeAfterUndoneSend(card, row(), { kind: "declined", code: "T0001", cause: "x" })).toMatchObject({ status: "declined", code: "T0001" })
  })
})

describe("planExisting: a second completion goes by the row", () => {
  it("declined stays declined; a legacy NOT_CHARGED is read; a young charging row is pending, a stale one read", () => {
    expect(planExisting(card, row({ status: "declined", code: "T0001" }), NOW).outcome).toMatchObject({ status: "declined", code: "card_declined_t0001" })
    expect(planExisting(card, row({ status: "declined", code: CHARGE_CODES.unavailable }), NOW).outcome).toMatchObject({ status: "declined", code: "saved_card_unavailable" })
    expect(planExisting(card, row({ status: "declined", code: CHARGE_CODES.legacyNotCharged }), NOW).read).not.toBeNull()
    expect(planExisting(card, row(), NOW + 1_000).outcome).toMatchObject({ status: "unknown" })
    expect(planExisting(card, row(), NOW + CHARGE_STALE_MS).read).not.toBeNull()
    expect(planExisting(card, row({ status: "unknown" }), NOW).read).not.toBeNull()
  })
})

describe("settleFromRead: only a read settles", () => {
  const read = (...statuses: Transaction["status"][]) => ({ ok: true as const, transactions: statuses.map(tx) })
  const at = { schedule: false, hid: null, now: NOW + 10 * 3_600_000 }

  it("paid → the session records it and the row is paid; refunded → settled as refunded; failed → declined", () => {
    expect(settleFromRead(card, row(), read("charged"), at)).toMatchObject({ outcome: { status: "paid" }, change: { status: "paid", transaction_id: "P0001" }, charge: { transaction: { status: "charged" } } })
    expect(settleFromRead(card, row(), read("refunded"), at)).toMatchObject({ outcome: { status: "declined", code: "saved_card_charge_refunded" }, change: { status: "paid", code: CHARGE_CODES.refunded }, charge: null })
    expect(settleFromRead(card, row({ code: "T0002" }), read("failed"), at)).toMatchObject({ outcome: { code: "card_declined_t0002" }, change: { status: "declined", code: "T0002" } })
  })

  it("nothing shown, however long after: unknown, never declared not made; a failed read is unknown too", () => {
    expect(settleFromRead(card, row(), read(), at)).toMatchObject({ outcome: { status: "unknown" }, change: { status: "unknown", code: "UNCONFIRMED" } })
    expect(settleFromRead(card, row({ status: "unknown", code: "C026" }), read(), at)).toMatchObject({ outcome: { status: "unknown" }, change: null })
    expect(settleFromRead(card, row(), { ok: false, error: "503" }, at)).toMatchObject({ outcome: { status: "unknown" }, change: { code: "UNREAD" } })
  })

  it("a schedule unconfirmed past the grace is reported not made, with an alert for the merchant", () => {
    expect(settleFromRead(card, row(), read(), { ...at, schedule: true, now: NOW + 1_000 })).toMatchObject({ outcome: { status: "unknown" }, change: null })
    const late = settleFromRead(card, row(), read(), { ...at, schedule: true, now: NOW + UNKNOWN_GRACE_MS })
    expect(late).toMatchObject({ outcome: { status: "declined" }, change: { code: CHARGE_CODES.scheduleUnconfirmed }, alert: expect.stringContaining("payses_1") })
  })
})
