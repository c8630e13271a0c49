import type { Subscription } from "../../lib/hosted"
import { nearestOwned } from "../service-read"

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27, 1, 0, 0) + ms).toISOString()
const started = (id: string, ms: number) => ({ id, status: "active", startedAt: at(ms) }) as Subscription
const paid = (entries: Array<[string, number | undefined]>) => new Map(entries.map(([id, ms]) => [id, ms === undefined ? undefined : Date.parse(at(ms))]))

describe("nearestOwned: which of several fitting subscriptions a checkout started", () => {
  const candidates = [started("S_A", 0), started("S_B", 3_000)]

  it.each([
    ["each checkout paid as its subscription started", paid([["x", 0], ["y", 3_000]]), "x", "S_A"],
    ["the other checkout's side of the same pair", paid([["x", 0], ["y", 3_000]]), "y", "S_B"],
    ["a few hundred ms between payment and start", paid([["x", 250], ["y", 2_700]]), "x", "S_A"],
    ["no other unnumbered checkout: the nearest start", paid([["x", 2_900]]), "x", "S_B"],
  ])("%s", (_, firstPaid, own, expected) => {
    expect(nearestOwned(own, candidates, firstPaid)?.id).toBe(expected)
  })

  it.each([
    ["two starts as near to the payment", [started("S_A", -1_000), started("S_B", 1_000)], paid([["x", 0]])],
    ["another checkout paid nearer to the same start", candidates, paid([["x", 1_000], ["y", 100]])],
    ["two checkouts paid at the same moment", candidates, paid([["x", 0], ["y", 0]])],
    ["the checkout's own payment unknown", candidates, paid([["x", undefined], ["y", 3_000]])],
  ])("no answer: %s", (_, fitting, firstPaid) => {
    expect(nearestOwned("x", fitting, firstPaid)).toBeUndefined()
  })
})
