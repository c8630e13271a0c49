import type { HttpTypes } from "@medusajs/types"
import { currentCart, setQuantity, subscriptionPlanIdOf } from "../cart"
import { byId, el } from "../element"
import { formatMoney } from "../money"
import { renderTotals } from "../order-summary"
import { runPage, showCartCount } from "../page"
import { storeErrorMessage } from "../store-error"

function render(cart: HttpTypes.StoreCart | undefined) {
  showCartCount(cart)
  const status = byId("cart-status")
  const content = byId("cart-content")
  if (!cart?.items?.length) {
    status.replaceChildren("Your cart is empty. ", el("a", { href: "/" }, "Browse the shop"), ".")
    status.hidden = false
    content.hidden = true
    return
  }
  status.hidden = true
  content.hidden = false
  const subscription = Boolean(subscriptionPlanIdOf(cart))
  const note = byId("subscription-note")
  note.textContent = subscription ? "This cart holds a subscription: it is checked out on its own, one item, and each period is charged the order's total. Remove it to shop for other items." : ""
  note.hidden = !subscription
  const rows = [...cart.items]
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
    .map((item) => lineRow(cart, item, subscription))
  byId("cart-lines").querySelector("tbody")!.replaceChildren(...rows)
  renderTotals(byId("cart-totals"), cart, { shippingChosen: Boolean(cart.shipping_methods?.length) })
}

/** A subscription's line keeps its quantity of 1: the subscription is the variant alone. */
function lineRow(cart: HttpTypes.StoreCart, item: HttpTypes.StoreCartLineItem, subscription: boolean): HTMLTableRowElement {
  const quantityId = `quantity-${item.id}`
  const input = el("input", { id: quantityId, type: "number", inputmode: "numeric", min: "0", max: "99", value: String(item.quantity), "data-testid": "line-quantity" })
  const form = el(
    "form",
    { class: "inline-form" },
    el("label", { for: quantityId, class: "visually-hidden" }, `Quantity of ${item.product_title ?? item.title}`),
    input,
    el("button", { type: "submit", class: "secondary", "data-testid": "update-quantity" }, "Update")
  )
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    change(cart.id, item.id, Number(input.value))
  })
  const remove = el("button", { type: "button", class: "secondary", "data-testid": "remove-line", "aria-label": `Remove ${item.product_title ?? item.title}` }, "Remove")
  remove.addEventListener("click", () => change(cart.id, item.id, 0))
  return el(
    "tr",
    { "data-testid": "cart-line", "data-line-id": item.id },
    el("td", {}, item.product_handle ? el("a", { href: `/products/${item.product_handle}` }, item.product_title ?? item.title) : item.title),
    el("td", {}, formatMoney(item.unit_price, cart.currency_code)),
    el("td", {}, subscription ? el("span", { "data-testid": "line-quantity-fixed" }, String(item.quantity)) : form),
    el("td", { "data-testid": "line-total" }, formatMoney(item.total, cart.currency_code)),
    el("td", {}, remove)
  )
}

function change(cartId: string, lineId: string, quantity: number) {
  const status = byId("cart-status")
  status.classList.remove("error")
  setQuantity(cartId, lineId, quantity).then(render, (error: unknown) => {
    status.hidden = false
    status.classList.add("error")
    status.textContent = storeErrorMessage(error)
  })
}

runPage("cart-status", async () => {
  render(await currentCart())
})
