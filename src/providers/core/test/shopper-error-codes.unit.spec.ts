import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { invoiceInfoSchema } from "../../../lib/hosted"
import { DeclinedError, InvalidRequestError, UnknownOutcomeError } from "../../../lib/http"
import { failureCode } from "../../hosted-checkout/hosted-checkout-status-map"
import { toMedusaError } from "../medusa-errors"
import { toTwd } from "../money"
import { parseSessionData } from "../session-data-shape"
import {
  codeForIssues,
  declineCode,
  embeddedFailureCode,
  hostedDeclineCode,
  SHOPPER_ERROR,
  SHOPPER_ERROR_CODES,
  withShopperCode,
} from "../shopper-error-codes"

/** Characters that exist only in Simplified Chinese (their Traditional forms differ): none may appear in zh-TW. */
const SIMPLIFIED_ONLY = /[费码银订单发账户证资请输额过时态选择认项验签购务货线据余条险]/u
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe("shopper error codes", () => {
  it("are stable snake_case strings, each once, each its own key", () => {
    expect(new Set(SHOPPER_ERROR_CODES).size).toBe(SHOPPER_ERROR_CODES.length)
    for (const [key, code] of Object.entries(SHOPPER_ERROR)) {
      expect(code).toBe(key)
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
    }
  })
})

/** The kit is ES modules (published separately): loaded as such, never imported by the plugin's code. */
type Messages = typeof import("../../../../packages/storefront/src/messages/index.js", { with: { "resolution-mode": "import" } })
let MESSAGES: Messages["MESSAGES"]
let messageFor: Messages["messageFor"]
/** The kit's own codes (`payment_not_completed`, ...), which its catalogues translate too. */
let kitCodes: string[]

beforeAll(async () => {
  ;({ MESSAGES, messageFor } = await import("../../../../packages/storefront/src/messages/index.js"))
  kitCodes = Object.values((await import("../../../../packages/storefront/src/core/payment-error.js")).KIT_ERROR_CODES)
})

describe("the storefront kit's catalogues", () => {
  const LOCALES = ["en", "zh-TW"] as const
  const known = () => new Set<string>([...SHOPPER_ERROR_CODES, ...kitCodes])

  it("are the two languages of the kit", () => {
    expect(Object.keys(MESSAGES).sort()).toEqual([...LOCALES].sort())
  })

  it.each(LOCALES)("%s has a text for every code of the plugin and of the kit", (locale) => {
    const errors = MESSAGES[locale].errors as Record<string, string>
    const missing = [...known()].filter((code) => !Object.prototype.hasOwnProperty.call(errors, code) || !errors[code].trim())
    expect(missing).toEqual([])
  })

  it.each(LOCALES)("%s has no key that is not a code", (locale) => {
    expect(Object.keys(MESSAGES[locale].errors).filter((key) => !known().has(key))).toEqual([])
  })

  it("has the same keys and placeholders in English and Traditional Chinese", () => {
    const { en, "zh-TW": zh } = MESSAGES
    expect(Object.keys(zh.errors).sort()).toEqual(Object.keys(en.errors).sort())
    expect(Object.keys(zh.texts).sort()).toEqual(Object.keys(en.texts).sort())
    const pairs = [
      ...Object.entries(en.errors).map(([key, text]) => [key, text, (zh.errors as Record<string, string>)[key]]),
      ...Object.entries(en.texts).map(([key, text]) => [key, text, (zh.texts as Record<string, string>)[key]]),
    ]
    for (const [key, english, chinese] of pairs) {
      expect({ key, placeholders: placeholders(chinese) }).toEqual({ key, placeholders: placeholders(english) })
    }
  })

  it("speaks Traditional Chinese in zh-TW", () => {
    const { "zh-TW": zh } = MESSAGES
    for (const [key, text] of [...Object.entries(zh.errors), ...Object.entries(zh.texts)]) {
      expect({ key, chinese: /\p{Script=Han}/u.test(text), simplified: text.match(SIMPLIFIED_ONLY)?.[0] ?? null }).toEqual({ key, chinese: true, simplified: null })
    }
  })

  it("gives the text of a code, its generic text for an unknown one, and fills placeholders", () => {
    expect(messageFor("currency_not_twd", "zh-TW")).toContain("新臺幣")
    expect(messageFor("no_such_code", "en")).toBe(MESSAGES.en.texts.generic_error)
    expect(messageFor("no_such_code", "zh-TW")).toBe(MESSAGES["zh-TW"].texts.generic_error)
    expect(messageFor("toString", "en")).toBe(MESSAGES.en.texts.generic_error)
    expect(messageFor("cvs_instructions", "zh-TW", { code: "LLL12345678", expires_at: "2026/12/01 23:59", amount: "1,280" })).toBe(
      "請於 2026/12/01 23:59 前，持繳費代碼 LLL12345678 至超商繳納 NT$1,280。"
    )
    expect(messageFor("atm_instructions", "en", { amount: "500" })).toContain("NT$500 to {bank_name}")
  })
})

describe("where the codes come from", () => {
  it("toTwd", () => {
    expect(() => toTwd(100, "usd")).toThrow(expect.objectContaining({ code: "currency_not_twd" }))
    expect(() => toTwd(12.5, "twd")).toThrow(expect.objectContaining({ code: "amount_not_whole_twd" }))
  })

  it("service errors", () => {
    const invalid = (code: string, variant?: string) => new InvalidRequestError({ code, status: 400, message: "x", variant })
    expect(toMedusaError("x", new DeclinedError({ code: "T0003", status: 400, message: "x" })).code).toBe("card_declined_t0003")
    expect(toMedusaError("x", new DeclinedError({ code: "CARD_EXPIRED", status: 402, message: "x" })).code).toBe("card_expired")
    expect(toMedusaError("x", invalid("K0001")).code).toBe("payment_amount_over_limit")
    expect(toMedusaError("x", invalid("V0001", "INVALID_CARRIER_ID")).code).toBe("invoice_carrier_invalid")
    expect(toMedusaError("x", invalid("V0001", "PRODUCT_AMOUNT_NOT_MATCH")).code).toBe("payment_rejected")
    expect(toMedusaError("x", new UnknownOutcomeError({ code: "C026", status: 409, message: "x" })).code).toBe("payment_outcome_unknown")
    expect(toMedusaError("x", new Error("boom")).code).toBe("payment_unavailable")
  })

  it("declines and failures", () => {
    expect(hostedDeclineCode("T0001")).toBe("card_declined_t0001")
    expect(hostedDeclineCode("T0009")).toBeUndefined()
    expect(declineCode(undefined)).toBe("card_declined")
    expect(embeddedFailureCode("3DS_CANCELED")).toBe("three_d_secure_canceled")
    expect(embeddedFailureCode("SOMETHING_NEW")).toBe("payment_failed")
    const tx = { id: "t", transactionHid: "P1", merchantId: "m", amount: 1, status: "failed" as const }
    expect(failureCode({ ...tx, paymentMethod: "cvs" })).toBe("payment_code_expired")
    expect(failureCode({ ...tx, paymentMethod: "card", message: "3DS_ABANDONED" } as never)).toBe("three_d_secure_timeout")
    expect(failureCode({ ...tx, paymentMethod: "card", failureCode: "exceeds_credit_limit" } as never)).toBe("card_insufficient_funds")
    expect(failureCode({ ...tx, paymentMethod: "card" })).toBe("payment_failed")
    expect(failureCode({ ...tx, status: "charged" })).toBeUndefined()
  })

  it("refused session data names the field's code", () => {
    const schema = z.strictObject({ invoice: invoiceInfoSchema.optional(), methods: z.array(z.enum(["cvs"])).optional() })
    const codeOf = (data: unknown) => {
      try {
        parseSessionData(schema, data, "Invalid payment session data")
      } catch (error) {
        return (error as MedusaError).code
      }
    }
    expect(codeOf({ invoice: { invoiceType: "cloud", carrierType: "3J0002", carrierId: "nope" } })).toBe("invoice_carrier_invalid")
    expect(codeOf({ invoice: { invoiceType: "company", buyerIdentifier: "12345678" } })).toBe("invoice_tax_id_invalid")
    expect(codeOf({ invoice: { invoiceType: "cloud" } })).toBe("invoice_invalid")
    expect(codeOf({ methods: ["atm"] })).toBe("payment_method_not_offered")
    expect(codeOf({ price: 1 })).toBe("payment_data_invalid")
    expect(codeForIssues([])).toBe("payment_data_invalid")
  })

  it("withShopperCode keeps a code already given and leaves other errors alone", () => {
    expect(withShopperCode(new MedusaError(MedusaError.Types.NOT_FOUND, "x"), "saved_card_not_found").code).toBe("saved_card_not_found")
    expect(withShopperCode(new MedusaError(MedusaError.Types.NOT_FOUND, "x", "cart_not_found"), "saved_card_not_found").code).toBe("cart_not_found")
    // As a workflow hands a step's error back: serialized, not an instance.
    expect(withShopperCode({ __isMedusaError: true, type: "not_allowed", message: "x" }, "subscription_not_cancellable")).toMatchObject({ code: "subscription_not_cancellable" })
    const plain = new Error("x")
    expect(withShopperCode(plain, "payment_failed")).not.toHaveProperty("code")
  })
})
