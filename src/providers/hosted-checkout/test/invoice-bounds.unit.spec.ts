import { checkoutBodySchema, parseInput } from "../../../api/tw-subscriptions-shared/input"
import { parseStorefrontData } from "../session-data"

/** Where the invoice choice enters the store: refused with a message naming the field, never echoing the value. */
const huge = "9".repeat(100_000)

describe("invoice choice bounds at the store's doors", () => {
  it("a storefront's session data: a 400-type error naming invoice.buyerName, without the value", () => {
    const data = { session_id: "payses_1", invoice: { invoiceType: "company", buyerIdentifier: "10458574", buyerName: `Evil ${huge}` } }
    let message = ""
    try {
      parseStorefrontData(data)
    } catch (error) {
      expect((error as { type?: string }).type).toBe("invalid_data")
      message = (error as Error).message
    }
    expect(message).toMatch(/invoice\.buyerName: must be at most 60 characters/)
    expect(message).not.toContain("999")
    expect(message.length).toBeLessThan(300)
  })

  it("the subscription checkout's body: the same refusal for invoice.carrierId", () => {
    const body = { plan_id: "twplan_1", invoice: { invoiceType: "cloud", carrierType: "", carrierId: huge } }
    expect(() => parseInput(checkoutBodySchema, body, "subscription checkout")).toThrow(/^Invalid subscription checkout: invoice\.carrierId: must be at most 16 characters$/)
  })
})
