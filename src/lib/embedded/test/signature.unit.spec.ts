import { createHmac } from "node:crypto"
import { PaymentServiceError } from "../../http"
import { constructEvent, signPayload, verifySignature } from "../webhooks"
import { WebhookSignatureError } from "../webhook-errors"
import { WHSEC } from "./mock-service"

const OLD = WHSEC
const NEW = "whsec_" + "n".repeat(48)
const OTHER = "whsec_" + "o".repeat(48)
const T = 1_760_000_000

const body = Buffer.from(
  JSON.stringify({
    id: "evt_1",
    type: "payment_intent.succeeded",
    api_version: "2026-01-01",
    created: T,
    data: { id: "pi_1", status: "succeeded", amount: 1500, currency: "TWD", orderId: "o1", returnUrl: "https://s.example/r", amountRefundable: 1500, created: T, note: "中文 ✓" },
  })
)

/** Independent reference: the spec's recipe written out by hand. */
const hmacHex = (secret: string, t: number | string, raw: Buffer) =>
  createHmac("sha256", secret).update(Buffer.concat([Buffer.from(`${t}.`), raw])).digest("hex")

function verifyError(fn: () => unknown): WebhookSignatureError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError)
    expect(error).toBeInstanceOf(PaymentServiceError)
    return error as WebhookSignatureError
  }
  throw new Error("expected a WebhookSignatureError")
}

describe("signPayload", () => {
  it("produces t and one v1 per secret, computed over `{t}.{raw body}`", () => {
    const header = signPayload(body, [NEW, OLD], { timestamp: T })
    expect(header).toBe(`t=${T},v1=${hmacHex(NEW, T, body)},v1=${hmacHex(OLD, T, body)}`)
  })

  it("signs a string body as its UTF-8 bytes", () => {
    expect(signPayload(body.toString("utf8"), OLD, { timestamp: T })).toBe(signPayload(body, OLD, { timestamp: T }))
  })

  it("defaults the timestamp to now", () => {
    const before = Math.floor(Date.now() / 1000)
    const t = Number(/^t=(\d+),/.exec(signPayload(body, OLD))![1])
    expect(t).toBeGreaterThanOrEqual(before)
    expect(t).toBeLessThanOrEqual(before + 1)
  })

  it("refuses a secret without the whsec_ prefix and a bad timestamp", () => {
    expect(() => signPayload(body, "not-a-secret")).toThrow(TypeError)
    expect(() => signPayload(body, [])).toThrow(TypeError)
    expect(() => signPayload(body, OLD, { timestamp: 1.5 })).toThrow(TypeError)
  })
})

describe("verifySignature", () => {
  const header = signPayload(body, OLD, { timestamp: T })

  it("accepts a valid signature and says which secret matched", () => {
    expect(verifySignature(body, header, OLD, { now: T })).toEqual({ timestamp: T, secretIndex: 0 })
  })

  it("accepts a signature made by hand with the spec's recipe", () => {
    expect(() => verifySignature(body, `t=${T},v1=${hmacHex(OLD, T, body)}`, OLD, { now: T })).not.toThrow()
  })

  it("accepts a Uint8Array view into a larger buffer", () => {
    const padded = Buffer.concat([Buffer.from("xxxx"), body, Buffer.from("yyyy")])
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 4, body.length)
    expect(verifySignature(view, header, OLD, { now: T }).timestamp).toBe(T)
  })

  it("accepts uppercase hex and spaces around parts", () => {
    const hex = hmacHex(OLD, T, body).toUpperCase()
    expect(() => verifySignature(body, ` t=${T} , v1=${hex} `, OLD, { now: T })).not.toThrow()
  })

  it("ignores schemes it does not know", () => {
    expect(() => verifySignature(body, `t=${T},v0=abc,v1=${hmacHex(OLD, T, body)},v2=zz`, OLD, { now: T })).not.toThrow()
  })

  it("rejects the wrong secret", () => {
    const error = verifyError(() => verifySignature(body, header, OTHER, { now: T }))
    expect(error.code).toBe("SIGNATURE_MISMATCH")
    expect(error.message).not.toContain(OTHER)
    expect(error.message).not.toContain(OLD)
    expect(error.message).not.toContain(hmacHex(OLD, T, body))
  })

  it("rejects a body changed in one byte", () => {
    const tampered = Buffer.from(body)
    tampered[tampered.indexOf("1500")] = "2".charCodeAt(0)
    expect(verifyError(() => verifySignature(tampered, header, OLD, { now: T })).code).toBe("SIGNATURE_MISMATCH")
  })

  it("rejects a body re-serialised differently", () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1))
    expect(verifyError(() => verifySignature(reserialised, header, OLD, { now: T })).code).toBe("SIGNATURE_MISMATCH")
  })

  it("rejects a signature whose timestamp was changed", () => {
    const forged = header.replace(`t=${T}`, `t=${T + 1}`)
    expect(verifyError(() => verifySignature(body, forged, OLD, { now: T })).code).toBe("SIGNATURE_MISMATCH")
  })

  describe("during a secret rotation", () => {
    const both = signPayload(body, [NEW, OLD], { timestamp: T })

    it("a header with new and old v1 verifies with only the new secret", () => {
      expect(verifySignature(body, both, NEW, { now: T }).secretIndex).toBe(0)
    })

    it("a header with new and old v1 verifies with only the old secret", () => {
      expect(verifySignature(body, both, OLD, { now: T }).secretIndex).toBe(0)
    })

    it("a header with one v1 verifies when either configured secret made it", () => {
      expect(verifySignature(body, signPayload(body, NEW, { timestamp: T }), [OLD, NEW], { now: T }).secretIndex).toBe(1)
      expect(verifySignature(body, signPayload(body, OLD, { timestamp: T }), [OLD, NEW], { now: T }).secretIndex).toBe(0)
    })

    it("a header with new and old v1 fails with an unrelated secret", () => {
      expect(verifyError(() => verifySignature(body, both, [OTHER], { now: T })).code).toBe("SIGNATURE_MISMATCH")
    })
  })

  describe("timestamp tolerance (300 s by default)", () => {
    it.each([
      ["300 s old", T + 300],
      ["300 s ahead", T - 300],
    ])("accepts a signature %s", (_title, now) => {
      expect(() => verifySignature(body, header, OLD, { now })).not.toThrow()
    })

    it.each([
      ["stale: 301 s old", T + 301],
      ["future: 301 s ahead", T - 301],
      ["a day old", T + 86_400],
    ])("rejects a %s signature", (_title, now) => {
      const error = verifyError(() => verifySignature(body, header, OLD, { now }))
      expect(error.code).toBe("SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE")
    })

    it("uses the clock when no `now` is given", () => {
      const fresh = signPayload(body, OLD)
      expect(() => verifySignature(body, fresh, OLD)).not.toThrow()
      expect(verifyError(() => verifySignature(body, header, OLD)).code).toBe("SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE")
    })

    it("honours a custom tolerance", () => {
      expect(verifyError(() => verifySignature(body, header, OLD, { now: T + 11, toleranceSec: 10 })).code).toBe(
        "SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE"
      )
      expect(() => verifySignature(body, header, OLD, { now: T + 10, toleranceSec: 10 })).not.toThrow()
      expect(() => verifySignature(body, header, OLD, { now: T, toleranceSec: -1 })).toThrow(TypeError)
    })
  })

  describe("malformed headers", () => {
    const v1 = hmacHex(OLD, T, body)

    it.each([
      ["undefined", undefined, "SIGNATURE_HEADER_MISSING"],
      ["empty", "", "SIGNATURE_HEADER_MISSING"],
      ["missing t", `v1=${v1}`, "SIGNATURE_HEADER_MALFORMED"],
      ["missing v1", `t=${T}`, "SIGNATURE_HEADER_MALFORMED"],
      ["only other schemes", `t=${T},v0=${v1}`, "SIGNATURE_HEADER_MALFORMED"],
      ["non-hex v1", `t=${T},v1=${"z".repeat(64)}`, "SIGNATURE_HEADER_MALFORMED"],
      ["short v1", `t=${T},v1=${v1.slice(0, 62)}`, "SIGNATURE_HEADER_MALFORMED"],
      ["long v1", `t=${T},v1=${v1}00`, "SIGNATURE_HEADER_MALFORMED"],
      ["one bad v1 among good ones", `t=${T},v1=${v1},v1=nothex`, "SIGNATURE_HEADER_MALFORMED"],
      ["empty v1", `t=${T},v1=`, "SIGNATURE_HEADER_MALFORMED"],
      ["non-numeric t", `t=yesterday,v1=${v1}`, "SIGNATURE_HEADER_MALFORMED"],
      ["negative t", `t=-${T},v1=${v1}`, "SIGNATURE_HEADER_MALFORMED"],
      ["two t", `t=${T},t=${T},v1=${v1}`, "SIGNATURE_HEADER_MALFORMED"],
      ["part without =", `t=${T},v1${v1}`, "SIGNATURE_HEADER_MALFORMED"],
      ["garbage", "hello", "SIGNATURE_HEADER_MALFORMED"],
      ["stray comma", `t=${T},,v1=${v1}`, "SIGNATURE_HEADER_MALFORMED"],
    ])("%s", (_title, value, code) => {
      const error = verifyError(() => verifySignature(body, value, OLD, { now: T }))
      expect(error.code).toBe(code)
      expect(error.message).not.toContain(v1)
    })
  })

  describe("argument checks", () => {
    it.each([
      ["a string body", body.toString("utf8")],
      ["a parsed JSON object", JSON.parse(body.toString("utf8"))],
      ["undefined", undefined],
      ["an ArrayBuffer", new ArrayBuffer(4)],
    ])("rejects %s with a TypeError that says raw bytes are needed", (_title, value) => {
      expect(() => verifySignature(value as never, header, OLD, { now: T })).toThrow(/raw request bytes/)
      expect(() => verifySignature(value as never, header, OLD, { now: T })).toThrow(TypeError)
    })

    it("rejects missing or prefix-less secrets without echoing them", () => {
      expect(() => verifySignature(body, header, [], { now: T })).toThrow(TypeError)
      expect(() => verifySignature(body, header, "", { now: T })).toThrow(TypeError)
      let message = ""
      try {
        verifySignature(body, header, "my-plain-secret-value", { now: T })
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toMatch(/whsec_/)
      expect(message).not.toContain("my-plain-secret-value")
    })
  })
})

describe("constructEvent", () => {
  it("verifies, then returns the typed event", () => {
    const event = constructEvent(body, signPayload(body, OLD, { timestamp: T }), OLD, { now: T })
    expect(event.type).toBe("payment_intent.succeeded")
    expect(event.id).toBe("evt_1")
  })

  it("does not parse a body whose signature fails", () => {
    expect(() => constructEvent(body, signPayload(body, OTHER, { timestamp: T }), OLD, { now: T })).toThrow(
      WebhookSignatureError
    )
  })
})
