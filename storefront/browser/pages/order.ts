import type { HttpTypes } from "@medusajs/types"
import { currentCart } from "../cart"
import { byId, el } from "../element"
import { sdk } from "../medusa"
import { describeOrderPayment, ORDER_PAYMENT_FIELDS, type OrderPayment, type PaymentInstructions } from "../order-payment"
import { renderLines, renderTotals } from "../order-summary"
import { subscriptionOfOrder } from "../order-subscription"
import { runPage, showCartCount } from "../page"
import { formatTaipeiTime } from "../taipei-time"

const EXPLANATIONS: Record<OrderPayment["state"], string> = {
  paid: "We have received your payment. We will let you know when your order ships.",
  awaiting: "Your order is placed. We ship it once the payment arrives.",
  authorized: "Your payment is authorized; it is taken when your order ships.",
  refunded: "Your payment was refunded.",
  canceled: "This order was canceled. If a payment code was issued for it, do not pay it.",
}

function instructionRows(instructions: PaymentInstructions): [string, string, string][] {
  const deadline: [string, string, string] = ["Pay before", formatTaipeiTime(instructions.payBefore), "pay-before"]
  if (instructions.kind === "cvs") {
    return [["Convenience store", instructions.storeName, "cvs-name"], ["Payment code", instructions.code, "payment-code"], deadline]
  }
  return [
    ["Bank", `${instructions.bankName} (${instructions.bankCode})`, "bank"],
    ["Account", instructions.account, "account"],
    deadline,
  ]
}

function showPayment(payment: OrderPayment) {
  const badge = byId("payment-state")
  badge.textContent = payment.label
  badge.dataset.state = payment.state
  byId("payment-method").textContent = payment.method ? `· ${payment.method}` : ""

  const instructions = byId("payment-instructions")
  if (payment.instructions) {
    const how =
      payment.instructions.kind === "cvs"
        ? `Pay this code at the counter of any ${payment.instructions.storeName} store before the deadline. We ship your order once the payment arrives.`
        : "Transfer the order total to this virtual account (ATM or online banking) before the deadline. We ship your order once the payment arrives."
    byId("payment-explanation").textContent = how
    instructions.replaceChildren(
      ...instructionRows(payment.instructions).flatMap(([label, value, key]) => [
        el("dt", {}, label),
        el("dd", { "data-testid": key }, key === "pay-before" ? el("time", { datetime: payment.instructions!.payBefore }, value) : value),
      ])
    )
    instructions.hidden = false
  } else {
    byId("payment-explanation").textContent = payment.explanation ?? EXPLANATIONS[payment.state]
    instructions.hidden = true
  }
  byId("payment-refresh").hidden = payment.state !== "awaiting"
}

function showAddress(address: HttpTypes.StoreOrderAddress | null | undefined) {
  const lines = [
    [address?.last_name, address?.first_name].filter(Boolean).join(" "),
    address?.address_1,
    [address?.postal_code, address?.city].filter(Boolean).join(" "),
    address?.phone,
  ].filter(Boolean) as string[]
  byId("order-address").replaceChildren(...lines.flatMap((line, i) => (i ? [el("br"), line] : [line])))
}

/** A subscription's orders say so, with a link to it. */
async function showSubscription(order: HttpTypes.StoreOrder) {
  const found = await subscriptionOfOrder(order.id, new URLSearchParams(location.search).get("subscription"))
  if (!found) {
    return
  }
  const link = el("a", { href: `/account/subscriptions/${found.subscription.id}`, id: "order-subscription-link" }, "your subscription")
  if (found.kind === "renewal") {
    byId("order-title").textContent = "Your renewal order"
    byId("order-subscription").replaceChildren(`The renewal order for period ${found.period} of `, link, ", paid with the card you subscribed with.")
  } else {
    byId("order-subscription").replaceChildren("This order starts ", link, ". See its next charge, or cancel it, in your account.")
  }
  byId("order-subscription").hidden = false
}

runPage("order-status", async () => {
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "")
  const [{ order }, cart] = await Promise.all([sdk.store.order.retrieve(id, { fields: ORDER_PAYMENT_FIELDS }), currentCart()])
  showCartCount(cart)

  byId("order-number").textContent = `#${order.display_id}`
  byId("order-email").textContent = order.email ?? ""
  showPayment(describeOrderPayment(order))
  await showSubscription(order)
  renderLines(byId("order-lines"), order.items, order.currency_code)
  renderTotals(byId("order-totals"), order, { shippingChosen: true })
  showAddress(order.shipping_address)
  byId("reload-order").addEventListener("click", () => location.reload())

  byId("order-status").hidden = true
  byId("order").hidden = false
})
