import { type OrderPayments, owedRefunds } from "../owed-refunds"

const payment = (id: string, captured: number[], refunded: number[], extra: { provider_id?: string; paymentMethod?: string } = {}) => ({
  id,
  provider_id: extra.provider_id ?? "pp_hosted-checkout_hosted-checkout",
  data: { paymentMethod: extra.paymentMethod ?? "card" },
  captures: captured.map((amount) => ({ amount })),
  refunds: refunded.map((amount) => ({ amount })),
})
const order = (status: string, ...payments: ReturnType<typeof payment>[]): OrderPayments => ({ status, payment_collections: [{ payments }] })

describe("owedRefunds (what a cancelled order still owes through this plugin)", () => {
  it.each([
    ["a live order owes nothing", order("pending", payment("pay_1", [780], [])), []],
    ["a cancelled order's unrefunded card payment", order("canceled", payment("pay_1", [780], [])), [{ payment_id: "pay_1", amount: 780 }]],
    ["what a partial refund left", order("canceled", payment("pay_1", [1000], [400])), [{ payment_id: "pay_1", amount: 600 }]],
    ["a payment refunded in full", order("canceled", payment("pay_1", [780], [780])), []],
    ["a payment never captured", order("canceled", payment("pay_1", [], [])), []],
    ["another provider's payment", order("canceled", payment("pay_1", [780], [], { provider_id: "pp_system_default" })), []],
    ["cvs money, returned by remittance instead", order("canceled", payment("pay_1", [780], [], { paymentMethod: "cvs" })), []],
    ["embedded card money", order("canceled", payment("pay_1", [500], [], { provider_id: "pp_embedded-card_embedded-card" })), [{ payment_id: "pay_1", amount: 500 }]],
  ])("%s", (_name, input, expected) => {
    expect(owedRefunds(input)).toEqual(expected)
  })
})
