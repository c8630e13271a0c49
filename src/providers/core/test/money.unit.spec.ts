import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { toTwd } from "../money"

describe("toTwd", () => {
  it.each([
    [1280, "twd", 1280],
    ["1", "TWD", 1],
    [new BigNumber(450), "twd", 450],
    [{ value: "200", precision: 20 }, "twd", 200],
  ])("%p %s -> %d", (amount, currency, expected) => {
    expect(toTwd(amount as never, currency)).toBe(expected)
  })

  it.each([
    [100, "usd", /only takes TWD/],
    [100, undefined, /only takes TWD/],
    [12.5, "twd", /whole dollars/],
    [0, "twd", /whole dollars/],
    [-5, "twd", /whole dollars/],
  ])("refuses %p %s before any call", (amount, currency, message) => {
    expect(() => toTwd(amount, currency)).toThrow(MedusaError)
    expect(() => toTwd(amount, currency)).toThrow(message)
  })
})
