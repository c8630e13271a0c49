import { currentCart } from "../cart"
import { byId, el } from "../element"
import { sdk } from "../medusa"
import { formatMoney } from "../money"
import { runPage, showCartCount } from "../page"
import { taiwanRegion } from "../region"

runPage("products-status", async () => {
  const region = await taiwanRegion()
  const [{ products }, cart] = await Promise.all([
    sdk.store.product.list({ region_id: region.id, fields: "id,title,handle,description,*variants.calculated_price", limit: 100 }),
    currentCart(),
  ])
  showCartCount(cart)

  byId("product-list").replaceChildren(
    ...products.map((product) => {
      const prices = (product.variants ?? []).map((v) => Number(v.calculated_price?.calculated_amount)).filter((p) => !Number.isNaN(p))
      const price = prices.length ? formatMoney(Math.min(...prices), region.currency_code) : "Not for sale in Taiwan"
      return el(
        "li",
        { class: "product-card", "data-testid": "product-card", "data-handle": product.handle ?? undefined },
        el("h2", {}, el("a", { href: `/products/${product.handle}`, "data-testid": "product-link" }, product.title)),
        el("p", {}, product.description ?? ""),
        el("p", { class: "price" }, prices.length > 1 ? `from ${price}` : price)
      )
    })
  )
  const status = byId("products-status")
  status.textContent = products.length ? "" : "Nothing for sale yet."
  status.hidden = products.length > 0
})
