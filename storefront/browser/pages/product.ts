import type { HttpTypes } from "@medusajs/types"
import { addToCart, currentCart } from "../cart"
import { byId, el } from "../element"
import { sdk } from "../medusa"
import { formatMoney } from "../money"
import { runPage, showCartCount } from "../page"
import { taiwanRegion } from "../region"
import { storeErrorMessage } from "../store-error"

runPage("product-status", async () => {
  const handle = decodeURIComponent(location.pathname.split("/").pop() ?? "")
  const region = await taiwanRegion()
  const [{ products }, cart] = await Promise.all([
    sdk.store.product.list({ handle, region_id: region.id, fields: "id,title,handle,description,*variants.calculated_price" }),
    currentCart(),
  ])
  showCartCount(cart)
  const product = products[0]
  const variant: HttpTypes.StoreProductVariant | undefined = product?.variants?.[0]
  if (!product || !variant) {
    byId("product-status").textContent = "This product is not available."
    return
  }

  document.title = `${product.title} · Taipei Tea House`
  byId("product-title").textContent = product.title
  byId("product-description").textContent = product.description ?? ""
  byId("product-price").textContent = formatMoney(variant.calculated_price?.calculated_amount, region.currency_code)
  byId("product-status").hidden = true
  byId("product").hidden = false

  const form = byId<HTMLFormElement>("add-to-cart-form")
  const button = byId<HTMLButtonElement>("add-to-cart")
  const status = byId("add-to-cart-status")
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    const quantity = Number(byId<HTMLInputElement>("quantity").value)
    button.disabled = true
    status.classList.remove("error")
    status.textContent = "Adding…"
    addToCart(variant.id, quantity)
      .then((updated) => {
        showCartCount(updated)
        status.replaceChildren(`Added ${quantity} × ${product.title} to your cart. `, el("a", { href: "/cart", id: "view-cart", "data-testid": "view-cart" }, "View cart"))
      })
      .catch((error: unknown) => {
        status.classList.add("error")
        status.textContent = storeErrorMessage(error)
      })
      .finally(() => {
        button.disabled = false
      })
  })
})
