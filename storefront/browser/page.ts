import type { HttpTypes } from "@medusajs/types"
import { itemCount } from "./cart"
import { byId } from "./element"
import { storeErrorMessage } from "./store-error"

/**
 * Runs a page's code. A failure replaces the page's "Loading…" line with what
 * went wrong instead of leaving it spinning; `body[data-ready]` tells a test
 * (or a curious reader) that the page has finished drawing.
 */
export function runPage(statusId: string, render: () => Promise<void>) {
  render()
    .catch((error: unknown) => {
      console.error(error)
      const status = byId(statusId)
      status.hidden = false
      status.classList.add("error")
      status.setAttribute("role", "alert")
      status.textContent = storeErrorMessage(error)
    })
    .finally(() => {
      document.body.dataset.ready = "true"
    })
}

/** The number next to "Cart" in the header. */
export function showCartCount(cart: HttpTypes.StoreCart | undefined) {
  byId("cart-count").textContent = String(itemCount(cart))
}
