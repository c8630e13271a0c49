import { isValidTaxId } from "../tax-id"

describe("isValidTaxId (統一編號 check digit)", () => {
  it.each([
    ["22099131", "sum 30"],
    ["04595257", "sum 40"],
    ["10458575", "sum 30 with a 7th digit 7 counted as 10"],
    ["10458570", "sum 25: only the divisible-by-5 rule accepts it"],
  ])("accepts %s (%s)", (id) => {
    expect(isValidTaxId(id)).toBe(true)
  })

  it("accepts a 7th digit 7 when sum + 1 is divisible by 5 (28 -> 1+0 counted as 1)", () => {
    // 1 0 4 5 8 5 7 4: digit sums 1+0+4+1+8+1+10+4 = 29
    expect(isValidTaxId("10458574")).toBe(true)
  })

  it("does not extend the sum + 1 rule to other 7th digits", () => {
    // 2 2 0 9 9 1 2 0: 2+4+0+9+9+2+8+0 = 34; 34 + 1 is divisible by 5 but the 7th digit is 2
    expect(isValidTaxId("22099120")).toBe(false)
  })

  it.each([
    ["22099132", "wrong check digit"],
    ["10458573", "7th digit 7 but neither sum nor sum + 1 divisible by 5"],
    ["2209913", "7 digits"],
    ["220991310", "9 digits"],
    ["2209913A", "a letter"],
    [" 2209913", "a space"],
    ["", "empty"],
  ])("rejects %s (%s)", (id) => {
    expect(isValidTaxId(id)).toBe(false)
  })
})
