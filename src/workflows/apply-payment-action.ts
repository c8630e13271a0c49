import type { MedusaContainer, WebhookActionResult } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { cancelOrderWorkflow, completeCartWorkflow, processPaymentWorkflow } from "@medusajs/medusa/core-flows"

/**
 * Applies what the provider read from the service to the store. Notifications
 * (through the subscriber) and the reconciliation job both come here, so
 * running both, or either twice, ends in the same state: every step checks
 * what already exists before it acts.
 *
 * `coreActions`: also run `authorized`/`captured`. Core's own webhook
 * subscriber does that for notifications, so only the job sets it.
 */
export async function applyPaymentAction(
  container: MedusaContainer,
  result: WebhookActionResult,
  { coreActions }: { coreActions: boolean }
): Promise<void> {
  const sessionId = result.data?.session_id
  if (!sessionId) {
    return
  }
  switch (result.action) {
    case PaymentActions.AUTHORIZED:
    case PaymentActions.SUCCESSFUL:
      if (coreActions) {
        await processPaymentWorkflow(container).run({ input: result })
      }
      return
    case PaymentActions.PENDING_AUTHORIZATION:
      return placeOrderAwaitingPayment(container, sessionId)
    case PaymentActions.FAILED:
      return cancelOrderAwaitingPayment(container, sessionId)
    default:
      return
  }
}

async function cartAndOrder(container: MedusaContainer, sessionId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["payment_collection_id"], filters: { id: sessionId } })
  const collectionId = sessions[0]?.payment_collection_id
  if (!collectionId) {
    return {}
  }
  const { data: links } = await query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: collectionId } })
  const cartId: string | undefined = links[0]?.cart_id
  if (!cartId) {
    return {}
  }
  const { data: orders } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return { cartId, orderId: orders[0]?.order_id as string | undefined }
}

/**
 * A convenience-store code or virtual account was issued: the order is placed
 * with payment awaiting, even when the shopper never came back to the store.
 */
async function placeOrderAwaitingPayment(container: MedusaContainer, sessionId: string) {
  const { cartId, orderId } = await cartAndOrder(container, sessionId)
  if (cartId && !orderId) {
    await completeCartWorkflow(container).run({ input: { id: cartId } })
  }
}

/**
 * The payment failed. With no order the cart simply stays payable. An order
 * placed while waiting for a cvs/atm payment is cancelled (which releases its
 * reservations), unless the store holds money for it.
 */
async function cancelOrderAwaitingPayment(container: MedusaContainer, sessionId: string) {
  const { orderId } = await cartAndOrder(container, sessionId)
  if (!orderId) {
    return
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: orders } = await query.graph({
    entity: "order",
    fields: ["id", "status", "payment_collections.payments.id", "payment_collections.payments.canceled_at"],
    filters: { id: orderId },
  })
  const order = orders[0] as
    | { status: string; payment_collections?: Array<{ payments?: Array<{ canceled_at?: unknown } | null> } | null> }
    | undefined
  const paid = order?.payment_collections?.some((c) => c?.payments?.some((p) => p && !p.canceled_at))
  if (!order || order.status === "canceled" || paid) {
    return
  }
  await cancelOrderWorkflow(container).run({ input: { order_id: orderId } })
  container.resolve(ContainerRegistrationKeys.LOGGER).info(`medusa-payment-tw: cancelled order ${orderId}: its payment expired unpaid`)
}
