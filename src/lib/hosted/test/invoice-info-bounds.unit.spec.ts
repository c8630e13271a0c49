import { invoiceInfoSchema } from "../schemas/invoice-info"

/**
 * The invoice choice comes from the storefront and is kept on the session and
 * payment: every field of it is bounded as the spec allows (2.3), whatever the
 * carrier type, and a refusal names the field without echoing the value.
 */
const huge = "9".repeat(100_000)

describe("invoice choice: every field bounded", () => {
  it.each([
    ["carrierId of a member carrier", { invoiceType: "cloud", carrierType: "", carrierId: huge }, "carrierId"],
    ["carrierId of a company invoice", { invoiceType: "company", buyerIdentifier: "10458574", carrierId: huge }, "carrierId"],
    ["carrierId of a mobile barcode", { invoiceType: "cloud", carrierType: "3J0002", carrierId: `/ABC1234${huge}` }, "carrierId"],
    ["carrierId one past a certificate", { invoiceType: "cloud", carrierType: "", carrierId: "AB123456789012345" }, "carrierId"],
    ["buyerIdentifier of a cloud invoice", { invoiceType: "cloud", carrierType: "", buyerIdentifier: huge }, "buyerIdentifier"],
    ["buyerIdentifier of 9 digits", { invoiceType: "company", buyerIdentifier: "104585740" }, "buyerIdentifier"],
    ["buyerName", { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "N".repeat(61) }, "buyerName"],
    ["a huge buyerName", { invoiceType: "company", buyerIdentifier: "10458574", buyerName: huge }, "buyerName"],
    ["a blank buyerName", { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "   " }, "buyerName"],
    ["a huge email", { invoiceType: "cloud", carrierType: "", email: `${"a".repeat(300)}@example.test` }, "email"],
  ])("refuses %s, naming only that field", (_what, info, field) => {
    const result = invoiceInfoSchema.safeParse(info)
    expect(result.success).toBe(false)
    const paths = result.error!.issues.map((issue) => issue.path.join("."))
    // One issue for the field: a too-long value is not also reported as a malformed one.
    expect(paths).toEqual([field])
    expect(JSON.stringify(result.error!.issues).length).toBeLessThan(500)
  })

  it.each([
    { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC1234" },
    { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" },
    { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "N".repeat(60) },
    { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "台北茶行股份有限公司" },
    { invoiceType: "cloud", carrierType: "", email: "lin@example.test" },
  ])("accepts a choice within the bounds (%#)", (info) => {
    expect(invoiceInfoSchema.safeParse(info).success).toBe(true)
  })

  it("trims the company name it keeps", () => {
    expect(invoiceInfoSchema.parse({ invoiceType: "company", buyerIdentifier: "10458574", buyerName: "  Taipei Tea Co. " }).buyerName).toBe("Taipei Tea Co.")
  })
})
