import type { HttpTypes } from "@medusajs/types"
import { forgetCart } from "./cart"
import { sdk } from "./medusa"
import { storeErrorMessage, storeErrorStatus } from "./store-error"

export type Completion = { kind: "order"; order: HttpTypes.StoreOrder } | { kind: "not-paid"; message: string }

const ATTEMPTS = 4
const RETRY_DELAY_MS = 1500

/**
 * Turns the cart into an order once its payment is done. Medusa answers 400
 * when the payment session is not paid (declined, abandoned, still open). Any
 * other failure can be the payment service's notification completing the same
 * cart at this moment, so the call is repeated: a completed cart answers with
 * its order.
 */
export async function completeCart(cartId: string): Promise<Completion> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await sdk.store.cart.complete(cartId)
      if (result.type === "order") {
        forgetCart()
        return { kind: "order", order: result.order }
      }
      return { kind: "not-paid", message: result.error?.message ?? "The payment is not complete." }
    } catch (error) {
      if (storeErrorStatus(error) === 400) {
        return { kind: "not-paid", message: storeErrorMessage(error) }
      }
      if (attempt >= ATTEMPTS) {
        throw error
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS))
    }
  }
}
