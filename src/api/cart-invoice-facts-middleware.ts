import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isProviderOf } from "../providers/core/provider-keys"
import { cartInvoiceSessionData } from "../payments/cart-invoice-facts"

/**
 * Before a hosted-checkout payment session is created through the store API,
 * puts the cart's id, buyer (email, billing name) and lines into the session
 * data as `cart_id`, `buyer` and `lines`. A payment provider never sees the
 * cart: the page names the cart as its order (so money paid after its session
 * was deleted still finds the cart's order), and the e-invoice needs the name
 * and email for its notice, the lines for the invoice and, later, the refunds'
 * allowances. Whatever the storefront sent under these keys is replaced: they
 * come from the cart only.
 */
export async function cartInvoiceFactsMiddleware(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { provider_id?: unknown; data?: unknown } | undefined
  if (!body || typeof body.provider_id !== "string" || !isProviderOf("hosted-checkout", body.provider_id)) {
    return next()
  }
  const data = typeof body.data === "object" && body.data !== null && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : {}
  try {
    body.data = { ...data, ...(await cartInvoiceSessionData(req.scope, req.params.id)) }
  } catch (error) {
    return next(error)
  }
  next()
}
