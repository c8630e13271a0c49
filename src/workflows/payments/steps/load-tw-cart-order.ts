import type { BigNumberInput } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { toTwd } from "../../../providers/core/money"
import type { PaymentObservation } from "../../../providers/core/payment-api"
import type { CartOrderState, SessionState } from "../decisions/payment-decision"
import { pluginProvider } from "../../../providers/plugin-providers"

interface CollectionRow {
  id: string
  amount: unknown
  currency_code: string
  payments?: Array<{ canceled_at?: unknown; data?: Record<string, unknown> | null } | null>
}

export interface LoadCartOrderInput {
  provider: string
  observation: PaymentObservation | null
  session: SessionState | null
}

/**
 * Only for a paid read whose session is gone: the order of the cart the
 * service names, with what the cart's collection holds (`decide` weighs
 * recording the payment there). Null otherwise.
 */
export const loadCartOrderStep = createStep("load-tw-cart-order", async ({ provider, observation, session }: LoadCartOrderInput, { container }) => {
  const cartId = observation?.cartId
  if (session || !observation?.paid || !cartId) {
    return new StepResponse<CartOrderState | null>(null)
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [{ data: orderLinks }, { data: collectionLinks }] = await Promise.all([
    query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } }),
    query.graph({ entity: "cart_payment_collection", fields: ["payment_collection_id"], filters: { cart_id: cartId } }),
  ])
  const orderId: string | undefined = orderLinks[0]?.order_id
  const collectionId: string | undefined = collectionLinks[0]?.payment_collection_id
  if (!orderId || !collectionId) {
    return new StepResponse<CartOrderState | null>(null)
  }
  const [{ data: orders }, { data: collections }] = await Promise.all([
    query.graph({ entity: "order", fields: ["id", "status"], filters: { id: orderId } }),
    query.graph({ entity: "payment_collection", fields: ["id", "amount", "currency_code", "payments.canceled_at", "payments.data"], filters: { id: collectionId } }),
  ])
  const collection = collections[0] as CollectionRow | undefined
  if (!orders[0] || !collection) {
    return new StepResponse<CartOrderState | null>(null)
  }
  const idField = pluginProvider(container, provider)?.api.idField ?? ""
  const paidWith = (collection.payments ?? []).flatMap((payment) => (payment && !payment.canceled_at ? [String(payment.data?.[idField] ?? "")] : []))
  return new StepResponse<CartOrderState | null>({
    id: orders[0].id,
    status: orders[0].status,
    collectionId,
    amount: collection.currency_code?.toLowerCase() === "twd" ? toTwd(collection.amount as BigNumberInput, "twd") : undefined,
    paidWith,
  })
})
