import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { isProviderOf } from "../providers/core/provider-keys"

/**
 * Before a hosted-checkout payment session is created through the store API,
 * puts the cart's buyer (email, billing name) and lines into the session data
 * as `buyer` and `lines`. A payment provider never sees the cart, and the
 * e-invoice needs both: the name and email for its notice, the lines for the
 * invoice and, later, the refunds' allowances. Whatever the storefront sent
 * under these keys is replaced: they come from the cart only.
 */

interface CartFacts {
  email?: string | null
  billing_address?: { first_name?: string | null; last_name?: string | null; company?: string | null } | null
  shipping_address?: { first_name?: string | null; last_name?: string | null } | null
  items?: Array<{ id: string; title?: string | null; product_title?: string | null; variant_sku?: string | null; quantity: unknown; total?: unknown } | null> | null
  shipping_methods?: Array<{ id: string; name?: string | null; total?: unknown } | null> | null
}

const FIELDS = [
  // A cart-level total makes the cart module compute the lines' totals too.
  "cart.total",
  "cart.email",
  "cart.billing_address.first_name",
  "cart.billing_address.last_name",
  "cart.billing_address.company",
  "cart.shipping_address.first_name",
  "cart.shipping_address.last_name",
  "cart.items.id",
  "cart.items.title",
  "cart.items.product_title",
  "cart.items.variant_sku",
  "cart.items.quantity",
  "cart.items.total",
  "cart.shipping_methods.id",
  "cart.shipping_methods.name",
  "cart.shipping_methods.total",
]

const fullName = (address: { first_name?: string | null; last_name?: string | null } | null | undefined) =>
  [address?.first_name, address?.last_name].map((part) => part?.trim()).filter(Boolean).join(" ")

/** The session data keys `buyer` and `lines` for a cart (exported for tests). */
export function cartInvoiceFacts(cart: CartFacts) {
  const name = fullName(cart.billing_address) || cart.billing_address?.company?.trim() || fullName(cart.shipping_address)
  const buyer = { ...(name ? { name } : {}), ...(cart.email ? { email: cart.email } : {}) }
  const items = (cart.items ?? []).flatMap((item) =>
    item ? [{ code: item.variant_sku || item.id, description: item.product_title || item.title || "Item", quantity: Number(item.quantity), amount: Number(item.total ?? 0) }] : []
  )
  const delivery = (cart.shipping_methods ?? []).flatMap((method) =>
    method ? [{ code: "SHIPPING", description: method.name || "Delivery", quantity: 1, amount: Number(method.total ?? 0) }] : []
  )
  return { buyer, lines: [...items, ...delivery] }
}

/**
 * `buyer` and `lines` of the cart of a payment collection, for the data of a
 * session created on it: by this middleware, and by the plugin's own routes
 * that create sessions themselves (the subscription checkout).
 */
export async function cartInvoiceSessionData(scope: MedusaContainer, paymentCollectionId: string) {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: collections } = await query.graph({ entity: "payment_collection", fields: FIELDS, filters: { id: paymentCollectionId } })
  const cart = (collections[0] as { cart?: CartFacts } | undefined)?.cart
  const facts = cart ? cartInvoiceFacts(cart) : { buyer: undefined, lines: undefined }
  return { buyer: facts.buyer, lines: facts.lines }
}

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
