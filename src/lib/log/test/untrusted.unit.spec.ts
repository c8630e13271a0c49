import { untrusted } from "../untrusted"

describe("untrusted", () => {
  it("quotes ordinary text unchanged", () => {
    expect(untrusted("tx_123")).toBe('"tx_123"')
  })

  it("escapes newlines, carriage returns and colour codes so no line can be forged", () => {
    const forged = 'x\n\u001b[32minfo\u001b[39m: hosted-checkout: refunded 500 TWD of P123 (refunded)\r'
    const out = untrusted(forged, 1000)
    expect([..."\n\r\u001b"].some((c) => out.includes(c))).toBe(false)
    expect(out).toContain("\\u000a")
    expect(out).toContain("\\u001b[32m")
  })

  it("escapes C1 controls, DEL, line separators, quotes and backslashes", () => {
    const out = untrusted('\u009b2J\u007f\u2028"\\')
    expect(out).toBe('"\\u009b2J\\u007f\\u2028\\"\\\\"')
  })

  it("cuts long input and says how long it was", () => {
    const out = untrusted("a".repeat(90_000))
    expect(out.length).toBeLessThan(120)
    expect(out).toContain("…(90000 chars)")
  })

  it("renders non-strings as JSON", () => {
    expect(untrusted({ id: 1 })).toBe('"{\\"id\\":1}"')
    expect(untrusted(undefined)).toBe('"undefined"')
  })
})
