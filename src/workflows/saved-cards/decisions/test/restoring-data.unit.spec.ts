import { restoringData } from "../restoring-data"

/** The payment module merges what it is given into a session's data: a restore must clear what a write added. */
const merge = (held: Record<string, unknown>, given: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...held }
  for (const [key, value] of Object.entries(given)) {
    const current = out[key]
    const bothObjects = [value, current].every((v) => typeof v === "object" && v !== null && !Array.isArray(v))
    out[key] = bothObjects ? merge(current as Record<string, unknown>, value as Record<string, unknown>) : value
  }
  return out
}

describe("restoringData", () => {
  it("merged over what was written, gives the previous values back and clears the added keys", () => {
    const previous = { savedCard: { id: "twcard_1", last4: "4242" }, amount: 990, subscription: { id: "twsub_1", checkoutId: "page" } }
    const written = { ...previous, transactionId: "T1", attestation: "sealed", subscription: { id: "twsub_1", checkoutId: "T1", hid: "S1" } }
    const restored = merge(written, restoringData(previous, written))
    expect(restored).toEqual({ ...previous, transactionId: null, attestation: null, subscription: { id: "twsub_1", checkoutId: "page", hid: null } })
  })
})
