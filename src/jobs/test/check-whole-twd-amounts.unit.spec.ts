import { describeFinding, type RegionFinding } from "../check-whole-twd-amounts"

const region = (changes: Partial<RegionFinding>): RegionFinding => ({
  id: "reg_1",
  name: "Taiwan",
  currency: "twd",
  providers: ["pp_hosted-checkout_hosted-checkout"],
  variantPrices: [],
  shippingPrices: [],
  otherPrices: [],
  promotions: [],
  ...changes,
})

describe("the boot warning's line", () => {
  it("counts each kind of amount with cents and names at most three of each", () => {
    const prices = [1, 2, 3, 4].map((n) => ({ id: `variant_${n}`, amount: n + 0.5 }))
    const line = describeFinding(region({ variantPrices: prices, otherPrices: [{ id: "price_9", amount: 0.25 }] }))
    expect(line).toContain('region "Taiwan" (reg_1) offers pp_hosted-checkout_hosted-checkout, which take whole TWD only')
    expect(line).toContain("4 product variant price(s) (variant_1: 1.5, variant_2: 2.5, variant_3: 3.5, …); 1 other price(s) (price_9: 0.25)")
    expect(line).not.toContain("variant_4")
    expect(line).not.toContain("shipping")
  })

  it("says when a region offering the providers is not in TWD", () => {
    expect(describeFinding(region({ currency: "eur" }))).toContain("but its currency is EUR: these providers take TWD only")
  })

  it("quotes and escapes the region's name, which is the merchant's text", () => {
    const line = describeFinding(region({ name: "Tai\nwan\u001b[31m", variantPrices: [{ id: "variant_1", amount: 1.5 }] }))
    expect([..."\n\u001b"].filter((c) => line.includes(c))).toEqual([])
    expect(line).toContain('region "Tai\\u000awan\\u001b[31m"')
  })
})
