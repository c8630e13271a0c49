import { cartInvoiceFacts } from "../../../payments/cart-invoice-facts"
import { invoiceRequestFields, invoiceSummary, maskCarrier } from "../invoice"
import { invoiceError } from "../invoice-errors"
import { InvalidRequestError } from "../../../lib/http"

describe("invoiceRequestFields", () => {
  it("prefers the logged-in customer's name and email, then the cart's buyer", () => {
    const invoice = { invoiceType: "cloud" as const, carrierType: "" as const }
    expect(invoiceRequestFields({ invoice, buyer: { name: "Cart Name", email: "cart@example.test" } }, { email: "me@example.test", first_name: "Mei", last_name: "Lin" })).toEqual({
      userName: "Mei Lin",
      userEmail: "me@example.test",
      invoiceInfo: invoice,
    })
    expect(invoiceRequestFields({ buyer: { name: "Cart Name", email: "cart@example.test" } })).toEqual({ userName: "Cart Name", userEmail: "cart@example.test" })
  })

  it.each([
    [{}, /no name and no email/],
    [{ buyer: { name: "Mei" } }, /has no email:/],
    [{ buyer: { email: "a@example.test" } }, /has no name:/],
  ])("names what is missing (%#)", (input, message) => {
    expect(() => invoiceRequestFields(input)).toThrow(message)
  })
})

describe("invoiceRequestFields off session (a renewal of Medusa's recipe: no cart, no shopper)", () => {
  it("addresses a customer registered without a name or company by their email", () => {
    expect(invoiceRequestFields({ offSession: true }, { email: "renewer@example.test" })).toEqual({ userName: "renewer@example.test", userEmail: "renewer@example.test" })
    expect(invoiceRequestFields({ offSession: true }, { email: "renewer@example.test", company_name: "Oolong Ltd" })).toEqual({ userName: "Oolong Ltd", userEmail: "renewer@example.test" })
  })

  it("refuses a customer without an email in words that fit a charge without a cart, with the invoice code", () => {
    const refused = (() => {
      try {
        invoiceRequestFields({ offSession: true }, { email: "", first_name: "Mei" })
      } catch (error) {
        return error as { message: string; code?: string; type?: string }
      }
    })()
    expect(refused).toMatchObject({ type: "invalid_data", code: "invoice_buyer_incomplete" })
    expect(refused?.message).toMatch(/off-session charge .* customer has none/)
    expect(refused?.message).not.toMatch(/cart/)
  })
})

describe("invoiceSummary (what the admin sees)", () => {
  it("masks personal carriers to their last characters", () => {
    expect(maskCarrier("/ABC1234", 3)).toBe("*****234")
    expect(invoiceSummary({ invoiceType: "cloud", carrierType: "3J0002", carrierId: "/ABC1234" })).toEqual({ invoice_type: "cloud", label: "Mobile barcode", carrier: "*****234" })
    expect(invoiceSummary({ invoiceType: "cloud", carrierType: "CQ0001", carrierId: "AB12345678901234" })).toEqual({
      invoice_type: "cloud",
      label: "Citizen digital certificate",
      carrier: "************1234",
    })
  })

  it("shows a company's tax id and name, the member carrier, and nothing for no choice", () => {
    expect(invoiceSummary({ invoiceType: "company", buyerIdentifier: "22099131", buyerName: "Tea Co." })).toEqual({
      invoice_type: "company",
      label: "Company (tax id)",
      tax_id: "22099131",
      company_name: "Tea Co.",
    })
    expect(invoiceSummary({ invoiceType: "cloud", carrierType: "" })).toEqual({ invoice_type: "cloud", label: "Member carrier" })
    expect(invoiceSummary(undefined)).toBeUndefined()
  })
})

describe("invoiceError (the service's e-invoice refusals)", () => {
  it.each([
    ["INVALID_CARRIER_ID", /carrier was not accepted \(invoice\.carrierId\)/],
    ["INVALID_TAX_ID_NUMBER", /tax id was not accepted \(invoice\.buyerIdentifier\)/],
    ["USER_NAME_AND_EMAIL_REQUIRED", /buyer's name and email/],
    ["PRODUCT_DETAILS_REQUIRED", /turn on the provider's `einvoice` option/],
  ])("%s becomes a clear message", (variant, message) => {
    const error = invoiceError("Refunding P1", new InvalidRequestError({ code: "V0001", status: 400, message: "V0001", variant }))
    expect(error?.message).toMatch(message)
  })

  it("leaves other errors to the general mapping", () => {
    expect(invoiceError("x", new InvalidRequestError({ code: "V0001", status: 400, message: "V0001", variant: "PRODUCT_AMOUNT_NOT_MATCH" }))).toBeUndefined()
    expect(invoiceError("x", new Error("boom"))).toBeUndefined()
  })
})

describe("cartInvoiceFacts (the store middleware's reading of the cart)", () => {
  it("takes the billing name and the cart's email, and one line per item and delivery", () => {
    expect(
      cartInvoiceFacts({
        email: "mei@example.test",
        billing_address: { first_name: "Mei", last_name: "Lin" },
        items: [{ id: "item_1", title: "150 g", product_title: "Oolong Tea", variant_sku: "TEA-150", quantity: 2, total: 1360 }],
        shipping_methods: [{ id: "sm_1", name: "Home delivery", total: 100 }],
      })
    ).toEqual({
      buyer: { name: "Mei Lin", email: "mei@example.test" },
      lines: [
        { code: "TEA-150", description: "Oolong Tea", quantity: 2, amount: 1360 },
        { code: "SHIPPING", description: "Home delivery", quantity: 1, amount: 100 },
      ],
    })
  })

  it("falls back to the billing company, then the shipping name; no email stays missing", () => {
    expect(cartInvoiceFacts({ billing_address: { company: "Tea Co." } }).buyer).toEqual({ name: "Tea Co." })
    expect(cartInvoiceFacts({ shipping_address: { first_name: "Ya", last_name: "Chen" } }).buyer).toEqual({ name: "Ya Chen" })
  })
})
