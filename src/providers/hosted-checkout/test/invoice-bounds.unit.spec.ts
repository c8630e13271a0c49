import { validateAndTransformBody, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { StoreStartTwSubscriptionCheckout } from "../../../api/store/carts/[id]/tw-subscription/validators"
import { parseStorefrontData } from "../hosted-checkout-session-data"

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

  it("the subscription checkout's body, through the route's middleware: the same refusal for invoice.carrierId", async () => {
    const req = { body: { plan_id: "twplan_1", invoice: { invoiceType: "cloud", carrierType: "", carrierId: huge } } }
    const next = jest.fn()
    await validateAndTransformBody(StoreStartTwSubscriptionCheckout)(req as MedusaRequest, {} as MedusaResponse, next)
    const error = next.mock.calls[0][0] as Error & { type?: string }
    expect(error.type).toBe("invalid_data")
    expect(error.message).toMatch(/^Invalid request: invoice\.carrierId: must be at most 16 characters$/)
  })
})
