import { allowanceLines, invoiceLines, linesTotal, type OrderLine } from "../invoice-lines"
import type { ProductDetail } from "../schemas/hosted-fields"

const fallback = (amount: number): ProductDetail => ({ productionCode: "ORDER", description: "Order", quantity: 1, unit: "order", unitPrice: amount })

describe("invoiceLines (the checkout's e-invoice lines)", () => {
  const cart: OrderLine[] = [
    { code: "TEA-150", description: "Oolong Tea, 150 g", quantity: 2, amount: 1360 },
    { code: "SHIPPING", description: "Home delivery", quantity: 1, amount: 100 },
  ]

  it("keeps quantity and unit price when the line total divides by the quantity", () => {
    expect(invoiceLines(cart, 1460, fallback)).toEqual([
      { productionCode: "TEA-150", description: "Oolong Tea, 150 g", quantity: 2, unit: "item", unitPrice: 680 },
      { productionCode: "SHIPPING", description: "Home delivery", quantity: 1, unit: "item", unitPrice: 100 },
    ])
  })

  it("makes an uneven line one line named with its quantity, and leaves out free lines", () => {
    const lines = invoiceLines(
      [
        { code: "A", description: "Cakes", quantity: 3, amount: 1000 },
        { code: "SHIPPING", description: "Pickup", quantity: 1, amount: 0 },
      ],
      1000,
      fallback
    )
    expect(lines).toEqual([{ productionCode: "A", description: "Cakes x 3", quantity: 1, unit: "item", unitPrice: 1000 }])
  })

  it("rounds each line to whole TWD and lets the last line absorb the rounding", () => {
    const lines = invoiceLines(
      [
        { code: "A", description: "A", quantity: 1, amount: 100.4 },
        { code: "B", description: "B", quantity: 1, amount: 200.4 },
        { code: "C", description: "C", quantity: 1, amount: 300.4 },
      ],
      601,
      fallback
    )
    // 601.2 in the store, 601 charged: 100 + 200 + 300 rounded, the last line takes the missing 1.
    expect(lines.map((l) => l.unitPrice)).toEqual([100, 200, 301])
    expect(linesTotal(lines)).toBe(601)
  })

  it("falls back to one line when the lines are not this amount's", () => {
    expect(invoiceLines(cart, 2000, fallback)).toEqual([fallback(2000)])
    expect(invoiceLines([], 500, fallback)).toEqual([fallback(500)])
    expect(invoiceLines([{ code: "A", description: "A", quantity: 0, amount: 500 }], 500, fallback)).toEqual([fallback(500)])
  })
})

describe("allowanceLines (a refund's allowance)", () => {
  const invoiced: ProductDetail[] = [
    { productionCode: "TEA", description: "Oolong Tea", quantity: 2, unit: "item", unitPrice: 680 },
    { productionCode: "CAKE", description: "Pineapple Cakes", quantity: 1, unit: "item", unitPrice: 450 },
    { productionCode: "SHIPPING", description: "Home delivery", quantity: 1, unit: "item", unitPrice: 100 },
  ]

  it("a full refund is the invoiced lines unchanged", () => {
    expect(allowanceLines(invoiced, 1910, fallback)).toEqual(invoiced)
  })

  it.each([1, 7, 333, 1000, 1909])("a partial refund of %p shares it by line totals and sums exactly to it", (refund) => {
    const lines = allowanceLines(invoiced, refund, fallback)
    expect(linesTotal(lines)).toBe(refund)
    for (const line of lines) {
      expect(line.quantity).toBe(1)
      expect(Number.isInteger(line.unitPrice)).toBe(true)
      expect(line.unitPrice).toBeGreaterThan(0)
    }
  })

  it("shares in proportion, rounding down, the last line taking the rest", () => {
    // 1000 of 1910: 1360 -> 712.04 -> 712, 450 -> 235.6 -> 235, rest 53
    expect(allowanceLines(invoiced, 1000, fallback).map((l) => [l.productionCode, l.unitPrice])).toEqual([
      ["TEA", 712],
      ["CAKE", 235],
      ["SHIPPING", 53],
    ])
  })

  it("falls back to one line without invoiced lines, with a discount line, or above the invoiced total", () => {
    expect(allowanceLines(undefined, 400, fallback)).toEqual([fallback(400)])
    expect(allowanceLines([...invoiced, { ...invoiced[0]!, unitPrice: -100 }], 400, fallback)).toEqual([fallback(400)])
    expect(allowanceLines(invoiced, 5000, fallback)).toEqual([fallback(5000)])
  })
})
