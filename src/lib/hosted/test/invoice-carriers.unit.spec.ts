import { isCitizenCertificate, isMobileBarcode } from "../invoice-carriers"
import { invoiceInfoSchema } from "../schemas/invoice-info"

describe("e-invoice carrier shapes", () => {
  it.each(["/ABC1234", "/A.B+C-1", "/0000000"])("accepts the mobile barcode %s", (id) => {
    expect(isMobileBarcode(id)).toBe(true)
  })
  it.each(["ABC12345", "/ABC123", "/ABC12345", "/abc1234", "/ABC 123", "//ABC123"])("refuses the mobile barcode %s", (id) => {
    expect(isMobileBarcode(id)).toBe(false)
  })
  it.each(["AB12345678901234"])("accepts the certificate %s", (id) => {
    expect(isCitizenCertificate(id)).toBe(true)
  })
  it.each(["A123456789012345", "AB1234567890123", "ab12345678901234", "AB123456789012345", "1212345678901234"])("refuses the certificate %s", (id) => {
    expect(isCitizenCertificate(id)).toBe(false)
  })

  it.each([
    [{ invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC12" }, "carrierId", "INVALID_CARRIER_ID"],
    [{ invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB123" }, "carrierId", "INVALID_CARRIER_ID"],
    [{ invoiceType: "company", buyerIdentifier: "22099132" }, "buyerIdentifier", "INVALID_TAX_ID_NUMBER"],
    [{ invoiceType: "company" }, "buyerIdentifier", "INVALID_TAX_ID_NUMBER"],
  ])("the invoiceInfo schema names the field and variant (%#)", (info, field, variant) => {
    const result = invoiceInfoSchema.safeParse(info)
    expect(result.success).toBe(false)
    const issue = result.error!.issues[0] as { path: PropertyKey[]; params?: { variant?: string } }
    expect(issue.path).toEqual([field])
    expect(issue.params?.variant).toBe(variant)
  })

  it.each([
    { invoiceType: "cloud", carrierType: "" },
    { invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC1234" },
    { invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" },
    { invoiceType: "company", buyerIdentifier: "10458574", buyerName: "Taipei Tea Co." },
  ])("accepts a valid choice (%#)", (info) => {
    expect(invoiceInfoSchema.safeParse(info).success).toBe(true)
  })
})
