import { ATTESTATION_TTL_MS, Attestor } from "../attestation"

const facts = { sessionId: "payses_1", serviceId: "tx_1", amount: 500, status: "charged" }
const { status: _status, ...subject } = facts

describe("Attestor", () => {
  const attestor = new Attestor("sandbox-hosted-token-demo-shop-0001")
  const now = new Date("2026-11-23T10:00:00Z")

  it("opens its own seal to the attested status", () => {
    const seal = attestor.seal(facts, now)
    expect(attestor.open(seal, subject, now.getTime() + 1000)).toBe("charged")
  })

  it("holds no credential and no key material in the seal", () => {
    const seal = JSON.stringify(attestor.seal(facts, now))
    expect(seal).not.toContain("sandbox-hosted-token")
  })

  it.each([
    ["another session", { ...subject, sessionId: "payses_2" }],
    ["another transaction", { ...subject, serviceId: "tx_2" }],
    ["another amount", { ...subject, amount: 501 }],
  ])("refuses a seal for %s", (_what, other) => {
    expect(attestor.open(attestor.seal(facts, now), other, now.getTime())).toBeUndefined()
  })

  it("refuses an altered status, a stale seal and one from another key", () => {
    const seal = attestor.seal({ ...facts, status: "failed" }, now)
    expect(attestor.open({ ...seal, status: "charged" }, subject, now.getTime())).toBeUndefined()
    expect(attestor.open(seal, subject, now.getTime() + ATTESTATION_TTL_MS + 1)).toBeUndefined()
    expect(new Attestor("another-credential").open(seal, subject, now.getTime())).toBeUndefined()
  })

  it.each([undefined, null, "charged", {}, { status: "charged", at: "x", mac: "00" }])("refuses a malformed seal %p", (value) => {
    expect(attestor.open(value, subject, now.getTime())).toBeUndefined()
  })
})
