import type { HttpTypes } from "@medusajs/types"
import { listSubscriptionPlans, type SubscriptionPlan } from "medusa-payment-tw-storefront"
import { addToCart, currentCart } from "../cart"
import { loggedInCustomer, loginHref } from "../customer"
import { byId, el } from "../element"
import { sdk } from "../medusa"
import { formatMoney } from "../money"
import { runPage, showCartCount } from "../page"
import { taiwanRegion } from "../region"
import { storeErrorMessage } from "../store-error"
import { startSubscriptionCart } from "../subscription-cart"
import { describePlan } from "../subscription-plans"

/** "Subscribe": a logged-in customer gets a subscription cart and goes to the checkout; a guest is asked to log in. */
function offerSubscription(plan: SubscriptionPlan, price: number | null | undefined, currencyCode: string) {
  byId("plan-title").textContent = plan.title
  byId("plan-terms").textContent = `— ${describePlan(plan, price, currencyCode)}`
  byId("subscription-offer").hidden = false
  const button = byId<HTMLButtonElement>("subscribe")
  const status = byId("subscribe-status")
  button.addEventListener("click", () => {
    button.disabled = true
    status.classList.remove("error")
    status.textContent = "One moment…"
    const subscribe = async () => {
      const customer = await loggedInCustomer()
      if (!customer) {
        status.replaceChildren("Subscriptions belong to a customer account: ", el("a", { href: loginHref(), id: "subscribe-login" }, "log in or create an account"), " to subscribe.")
        return
      }
      await startSubscriptionCart(plan, customer)
      location.assign("/checkout")
    }
    subscribe()
      .catch((error: unknown) => {
        status.classList.add("error")
        status.textContent = storeErrorMessage(error)
      })
      .finally(() => {
        button.disabled = false
      })
  })
}

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
  const plan = (await listSubscriptionPlans(sdk, { productId: product.id })).find((p) => p.variant_id === variant.id)
  if (plan) {
    offerSubscription(plan, variant.calculated_price?.calculated_amount, region.currency_code)
  }
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
