import { MedusaError } from "@medusajs/framework/utils"
import { cannotFulfil } from "../cannot-fulfil"

const error = (type: string, message: string, code?: string) => ({ type, message, code })

describe("cannotFulfil: stock gone for good, or worth another attempt", () => {
  it.each([
    ["core's inventory check (its code)", true, error(MedusaError.Types.NOT_ALLOWED, "Some variant does not have the required inventory", MedusaError.Codes.INSUFFICIENT_INVENTORY)],
    ["core's inventory check, its code lost on the way", true, error(MedusaError.Types.NOT_ALLOWED, "Some variant does not have the required inventory")],
    ["the inventory module refusing the reservation", true, error(MedusaError.Types.NOT_ALLOWED, "Not enough stock available for item iitem_1 at location sloc_1")],
    ["another refusal", false, error(MedusaError.Types.NOT_ALLOWED, "Payment sessions are required to complete cart")],
    ["the same words from another kind of error", false, error(MedusaError.Types.UNEXPECTED_STATE, "Not enough stock available for item iitem_1")],
    ["a lock that timed out", false, error(MedusaError.Types.UNEXPECTED_STATE, "Timed-out acquiring lock.")],
    ["no error", false, undefined],
  ] as const)("%s → %s", (_, expected, given) => {
    expect(cannotFulfil(given)).toBe(expected)
  })
})
