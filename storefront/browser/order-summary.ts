import type { HttpTypes } from "@medusajs/types"
import { el } from "./element"
import { formatMoney } from "./money"

type Line = HttpTypes.StoreCartLineItem | HttpTypes.StoreOrderLineItem

interface Totals {
  currency_code: string
  item_subtotal?: number | null
  shipping_total?: number | null
  tax_total?: number | null
  total?: number | null
}

/** "2 × Oolong Tea … NT$1,360" lines of a cart or an order. */
export function renderLines(list: HTMLElement, items: Line[] | null | undefined, currencyCode: string) {
  list.replaceChildren(
    ...(items ?? []).map((item) =>
      el(
        "li",
        { "data-testid": "summary-line" },
        el("span", {}, `${item.quantity} × ${item.product_title ?? item.title}`),
        el("span", {}, formatMoney(Number(item.total ?? Number(item.unit_price) * Number(item.quantity)), currencyCode))
      )
    )
  )
}

/** Subtotal, delivery, tax (when any) and total of a cart or an order. */
export function renderTotals(list: HTMLElement, totals: Totals, options: { shippingChosen: boolean }) {
  const rows: [string, string, string][] = [["Subtotal", formatMoney(totals.item_subtotal, totals.currency_code), "subtotal"]]
  rows.push(["Delivery", options.shippingChosen ? formatMoney(totals.shipping_total, totals.currency_code) : "chosen at checkout", "shipping"])
  if (Number(totals.tax_total ?? 0) > 0) {
    rows.push(["Tax", formatMoney(totals.tax_total, totals.currency_code), "tax"])
  }
  rows.push(["Total", formatMoney(totals.total, totals.currency_code), "total"])
  list.replaceChildren(
    ...rows.flatMap(([label, value, key]) => [
      el("dt", { class: key }, label),
      el("dd", { class: key, "data-testid": `total-${key}` }, value),
    ])
  )
}
