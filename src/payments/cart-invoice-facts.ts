import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

/**
 * The cart's buyer (email, billing name) and lines, as session data `buyer`
 * and `lines` of a hosted-checkout session: a payment provider never sees the
 * cart, and the e-invoice needs both. Read for the store middleware
 * (src/api/cart-invoice-facts-middleware.ts) and the subscription checkout workflow.
 */

interface CartFacts {
  email?: string | null
  billing_address?: { first_name?: string | null; last_name?: string | null; company?: string | null } | null
  shipping_address?: { first_name?: string | null; last_name?: string | null } | null
  items?: Array<{ id: string; title?: string | null; product_title?: string | null; variant_sku?: string | null; quantity: unknown; total?: unknown } | null> | null
  shipping_methods?: Array<{ id: string; name?: string | null; total?: unknown } | null> | null
}

const FIELDS = [
  "cart.id",
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
 * `cart_id`, `buyer` and `lines` of the cart of a payment collection, for the data of a
 * session created on it: by the store middleware, and by the subscription
 * checkout, which creates its session itself.
 */
export async function cartInvoiceSessionData(scope: MedusaContainer, paymentCollectionId: string) {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: collections } = await query.graph({ entity: "payment_collection", fields: FIELDS, filters: { id: paymentCollectionId } })
  const cart = (collections[0] as { cart?: CartFacts & { id: string } } | undefined)?.cart
  const facts = cart ? cartInvoiceFacts(cart) : { buyer: undefined, lines: undefined }
  return { cart_id: cart?.id, buyer: facts.buyer, lines: facts.lines }
}
