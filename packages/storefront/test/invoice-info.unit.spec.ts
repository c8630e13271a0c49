import { invoiceChoiceOf, InvoiceChoiceError, invoiceInfoFromChoice } from "../src/core/invoice-choice.js"
import { validateInvoiceInfo } from "../src/core/invoice-info.js"
import { isValidTaxId } from "../src/core/invoice-rules.js"

const issuesOf = (value: unknown) => {
  const result = validateInvoiceInfo(value)
  return result.success ? [] : result.issues.map(({ field, code }) => ({ field, code }))
}

describe("validateInvoiceInfo", () => {
  it.each([
    [{ invoiceType: "cloud", carrierType: "" }],
    [{ invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC+1.7" }],
    [{ invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" }],
    [{ invoiceType: "company", buyerIdentifier: "22099131", buyerName: "Tea Co.", email: "books@example.com" }],
    // What the provider lets through: a company ignores carriers, a member carrier ignores carrierId.
    [{ invoiceType: "company", buyerIdentifier: "22099131", carrierType: "" }],
    [{ invoiceType: "cloud", carrierType: "", carrierId: "anything" }],
  ])("takes %j", (info) => {
    expect(validateInvoiceInfo(info)).toEqual({ success: true, invoice: info })
  })

  it("names the field and what is wrong with it", () => {
    expect(issuesOf({ invoiceType: "cloud" })).toEqual([{ field: "carrierType", code: "carrier_type_required" }])
    expect(issuesOf({ invoiceType: "cloud", carrierType: "3J0002", carrierId: "/abc1234" })).toEqual([{ field: "carrierId", code: "mobile_barcode_invalid" }])
    expect(issuesOf({ invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB1234567890123" })).toEqual([{ field: "carrierId", code: "citizen_certificate_invalid" }])
    expect(issuesOf({ invoiceType: "company" })).toEqual([{ field: "buyerIdentifier", code: "tax_id_required" }])
    expect(issuesOf({ invoiceType: "company", buyerIdentifier: "2209913" })).toEqual([{ field: "buyerIdentifier", code: "tax_id_invalid" }])
    expect(issuesOf({ invoiceType: "company", buyerIdentifier: "22099132" })).toEqual([{ field: "buyerIdentifier", code: "tax_id_check_digit" }])
    expect(issuesOf({ invoiceType: "company", buyerIdentifier: "123456789" })).toEqual([{ field: "buyerIdentifier", code: "tax_id_too_long" }])
    expect(issuesOf({ invoiceType: "company", buyerIdentifier: "22099131", buyerName: "   " })).toEqual([{ field: "buyerName", code: "company_name_blank" }])
    expect(issuesOf({ invoiceType: "company", buyerIdentifier: "22099131", buyerName: "x".repeat(61) })).toEqual([{ field: "buyerName", code: "company_name_too_long" }])
    expect(issuesOf({ invoiceType: "cloud", carrierType: "", email: "not an email" })).toEqual([{ field: "email", code: "invoice_email_invalid" }])
    expect(issuesOf({ invoiceType: "cloud", carrierType: "", email: `${"a".repeat(250)}@x.tw` })).toEqual([{ field: "email", code: "invoice_email_too_long" }])
    expect(issuesOf({ invoiceType: "cloud", carrierType: "", carrierId: "x".repeat(17) })).toEqual([{ field: "carrierId", code: "carrier_id_too_long" }])
    expect(issuesOf({ invoiceType: "donation" })).toEqual([{ field: "invoiceType", code: "invoice_type_invalid" }])
    expect(issuesOf({ invoiceType: "cloud", carrierType: "", loveCode: "168" })).toEqual([{ field: undefined, code: "invoice_unknown_field" }])
    expect(issuesOf("cloud")).toEqual([{ field: undefined, code: "invoice_not_an_object" }])
  })

  it("counts a company name's length without its surrounding blanks, and sends it trimmed", () => {
    const name = ` ${"名".repeat(60)} `
    expect(validateInvoiceInfo({ invoiceType: "company", buyerIdentifier: "22099131", buyerName: name })).toEqual({
      success: true,
      invoice: { invoiceType: "company", buyerIdentifier: "22099131", buyerName: "名".repeat(60) },
    })
  })
})

describe("isValidTaxId", () => {
  it("takes ids whose weighted digit sum divides by 5, and by 5 with one more when the 7th digit is 7", () => {
    expect(["22099131", "04595257", "12345675", "10458575"].map(isValidTaxId)).toEqual([true, true, true, true])
    expect(["22099132", "1234567", "2209913a", ""].map(isValidTaxId)).toEqual([false, false, false, false])
    // 7th digit 7: its 4 × 7 = 28 counts as 10 (a sum of 29) or as 1 (30).
    expect(isValidTaxId("10458574")).toBe(true)
  })
})

describe("invoiceInfoFromChoice", () => {
  it("builds the provider's invoice: carriers upper-cased and trimmed, blank optional fields left out", () => {
    expect(invoiceInfoFromChoice({ kind: "member" })).toEqual({ invoiceType: "cloud", carrierType: "" })
    expect(invoiceInfoFromChoice({ kind: "mobile_barcode", barcode: " /abc+1.7 " })).toEqual({ invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC+1.7" })
    expect(invoiceInfoFromChoice({ kind: "citizen_certificate", certificate: "ab12345678901234" })).toEqual({ invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" })
    expect(invoiceInfoFromChoice({ kind: "company", taxId: " 22099131 ", companyName: "  ", email: " " })).toEqual({ invoiceType: "company", buyerIdentifier: "22099131" })
    expect(invoiceInfoFromChoice({ kind: "company", taxId: "22099131", companyName: " Tea Co. ", email: "books@example.com" })).toEqual({
      invoiceType: "company",
      buyerIdentifier: "22099131",
      buyerName: "Tea Co.",
      email: "books@example.com",
    })
  })

  it("throws an InvoiceChoiceError with the store's code and the field's issue", () => {
    const refusal = (make: () => unknown) => {
      try {
        make()
      } catch (error) {
        expect(error).toBeInstanceOf(InvoiceChoiceError)
        const { code, issues } = error as InvoiceChoiceError
        return { code, issues: issues.map((issue) => issue.code) }
      }
      throw new Error("not refused")
    }
    expect(refusal(() => invoiceInfoFromChoice({ kind: "mobile_barcode", barcode: "/ABC12" }))).toEqual({ code: "invoice_carrier_invalid", issues: ["mobile_barcode_invalid"] })
    expect(refusal(() => invoiceInfoFromChoice({ kind: "company", taxId: "22099132" }))).toEqual({ code: "invoice_tax_id_invalid", issues: ["tax_id_check_digit"] })
    expect(refusal(() => invoiceInfoFromChoice({ kind: "member", email: "nope" }))).toEqual({ code: "invoice_invalid", issues: ["invoice_email_invalid"] })
  })

  it("gives back the choice an invoice was made from, for a form filled in again", () => {
    const choices = [
      { kind: "member" },
      { kind: "mobile_barcode", barcode: "/ABC+1.7" },
      { kind: "citizen_certificate", certificate: "AB12345678901234", email: "me@example.com" },
      { kind: "company", taxId: "22099131", companyName: "Tea Co." },
    ] as const
    for (const choice of choices) {
      expect(invoiceChoiceOf(invoiceInfoFromChoice(choice))).toEqual(choice)
    }
    expect(invoiceChoiceOf({ invoiceType: "company", buyerIdentifier: "22099132" })).toBeUndefined()
    expect(invoiceChoiceOf(undefined)).toBeUndefined()
  })
})
