import fc from "fast-check"
import { parseStorefrontData } from "../hosted-checkout-session-data"

/**
 * The storefront kit (packages/storefront, published on its own) checks an
 * e-invoice choice in the shopper's page with its own copy of the rules. It
 * must take exactly what this provider takes: a choice it refuses that the
 * provider would take locks a shopper out, one it takes that the provider
 * refuses fails only after the shopper pressed Pay.
 */

/** The provider's verdict: the session data a storefront sends, with this invoice. */
function providerTakes(invoice: unknown): { taken: true; invoice: unknown } | { taken: false } {
  try {
    return { taken: true, invoice: parseStorefrontData({ session_id: "payses_1", invoice }).invoice }
  } catch {
    return { taken: false }
  }
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`))
/** Mostly near the rules' edges, sometimes anything at all. */
const text = (...near: fc.Arbitrary<unknown>[]) => fc.oneof({ weight: 4, arbitrary: fc.oneof(...near) }, { weight: 1, arbitrary: fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.integer(), fc.constant(null)) })

const carrierId = text(
  fc.stringMatching(/^\/[0-9A-Z.+-]{7}$/),
  fc.stringMatching(/^\/[0-9A-Za-z.+_ -]{6,8}$/),
  fc.stringMatching(/^[A-Z]{2}[0-9]{14}$/),
  fc.stringMatching(/^[A-Za-z]{1,3}[0-9]{13,15}$/),
  fc.string({ minLength: 15, maxLength: 18 }),
  fc.constant("")
)
// About one 8-digit string in five has a valid check digit.
const buyerIdentifier = text(digits(8, 8), digits(7, 9), fc.constantFrom("22099131", "04595257", "10458574", "12345675"), fc.stringMatching(/^[0-9]{7}[A-Z ]$/))
const buyerName = text(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.stringMatching(/^\s{0,3}$/),
  fc.tuple(fc.stringMatching(/^\s{0,2}$/), fc.string({ unit: "grapheme", minLength: 58, maxLength: 62 }), fc.stringMatching(/^\s{0,2}$/)).map((parts) => parts.join(""))
)
const email = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9._-]{1,12}@[a-z0-9-]{1,10}\.[a-z]{2,6}$/) },
  { weight: 1, arbitrary: text(fc.emailAddress(), fc.string({ maxLength: 20 }), fc.emailAddress().map((address) => `${"a".repeat(240)}${address}`)) }
)

const invoiceType = text(fc.constantFrom("cloud", "company"), fc.constant("donation"))
const carrierType = text(fc.constantFrom("", "3J0002", "CQ0001"), fc.constant("3j0002"))

/** Choices a shopper makes: each kind, right or nearly so, with a company name or an email at times. */
const choice = fc
  .tuple(
    fc.oneof(
      fc.constant({ invoiceType: "cloud", carrierType: "" }),
      fc.stringMatching(/^\/[0-9A-Z.+-]{7}$/).map((id) => ({ invoiceType: "cloud", carrierType: "3J0002", carrierId: id })),
      fc.stringMatching(/^[A-Z]{2}[0-9]{14}$/).map((id) => ({ invoiceType: "cloud", carrierType: "CQ0001", carrierId: id })),
      fc.oneof(digits(8, 8), fc.constantFrom("22099131", "04595257", "10458574", "12345675")).map((id) => ({ invoiceType: "company", buyerIdentifier: id }))
    ),
    fc.option(buyerName, { nil: undefined, freq: 3 }),
    fc.option(email, { nil: undefined, freq: 3 })
  )
  .map(([kind, name, address]) => ({ ...kind, ...(name === undefined ? {} : { buyerName: name }), ...(address === undefined ? {} : { email: address }) }))

/** A field set to another value, to undefined, or left out; or a field the provider does not know. */
const LEAVE_OUT = Symbol("leave out")
const FIELDS: Array<[string, fc.Arbitrary<unknown>]> = [
  ["invoiceType", invoiceType],
  ["carrierType", carrierType],
  ["carrierId", carrierId],
  ["buyerIdentifier", buyerIdentifier],
  ["buyerName", buyerName],
  ["email", email],
  ["loveCode", fc.constant("168")],
]
const change = fc.oneof(...FIELDS.map(([key, value]) => fc.tuple(fc.constant(key), fc.oneof(value, fc.constant(undefined), fc.constant(LEAVE_OUT)))))

const invoice = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.tuple(choice, fc.array(change, { maxLength: 2 })).map(([value, changes]) => {
      const changed: Record<string, unknown> = { ...value }
      for (const [key, to] of changes) {
        if (to === LEAVE_OUT) {
          delete changed[key]
        } else {
          changed[key] = to
        }
      }
      return changed
    }),
  },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.string(), fc.array(fc.string()), fc.integer()) }
)

describe("the storefront kit's e-invoice rules agree with the hosted-checkout provider's", () => {
  // The kit is an ES module and this plugin CommonJS: TypeScript lets a CommonJS file load one only with import().
  let validateInvoiceInfo: (value: unknown) => { success: true; invoice: unknown } | { success: false }
  beforeAll(async () => {
    ;({ validateInvoiceInfo } = await import("../../../../packages/storefront/src/core/invoice-info.js"))
  })

  it("both take and refuse exactly the same choices, and the kit sends what the provider keeps", () => {
    const seen = { taken: 0, refused: 0 }
    fc.assert(
      fc.property(invoice, (value) => {
        const provider = providerTakes(value)
        const kit = validateInvoiceInfo(value)
        expect({ value, kitTakes: kit.success }).toEqual({ value, kitTakes: provider.taken })
        if (kit.success && provider.taken) {
          expect(kit.invoice).toEqual(provider.invoice)
        }
        seen[provider.taken ? "taken" : "refused"]++
      }),
      {
        numRuns: 4000,
        // Strings whose UTF-16 length passes a bound their code points do not, or the reverse (zod counts code points).
        examples: [[{ invoiceType: "company", buyerIdentifier: "\u{10000}".repeat(5) }], [{ invoiceType: "cloud", carrierType: "3J0002", carrierId: "\u{1F375}".repeat(9) }]],
      }
    )
    // Not a vacuous agreement: both verdicts came up often.
    expect(seen.taken).toBeGreaterThan(400)
    expect(seen.refused).toBeGreaterThan(400)
  })
})
