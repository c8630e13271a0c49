import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { createOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows"

interface OrderPayments {
  id: string
  currency_code: string
  total: unknown
  payment_collections?: Array<{ id: string; payments?: Array<{ id: string; captured_at: unknown } | null> } | null>
}

export async function orderPayments(container: MedusaContainer, orderId: string): Promise<OrderPayments | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "currency_code", "total", "payment_collections.id", "payment_collections.payments.id", "payment_collections.payments.captured_at"],
    filters: { id: orderId },
  })
  return data[0] as OrderPayments | undefined
}

const captured = (order: OrderPayments | undefined) => (order?.payment_collections ?? []).some((c) => (c?.payments ?? []).some((p) => !!p?.captured_at))

/** Whether a payment of the order was captured: from then on the order is the store's record of the service's money. */
export async function capturedOn(container: MedusaContainer, orderId: string): Promise<boolean> {
  return captured(await orderPayments(container, orderId))
}

interface RenewalCollection {
  collectionId: string
  captured: boolean
}

interface MadeCollection {
  orderId: string
  collectionId: string
}

/**
 * The renewal order's payment collection, of the period's amount: the one it
 * has, or a new one. Undone (with the sessions in it) only when this step
 * made it and nothing was captured.
 */
export const addTwRenewalPaymentCollectionStep = createStep(
  "add-tw-renewal-payment-collection",
  async ({ orderId, amount }: { orderId: string; amount: number }, { container }) => {
    const order = await orderPayments(container, orderId)
    if (!order) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Renewal order ${orderId} no longer exists.`)
    }
    const existing = (order.payment_collections ?? []).find((c) => !!c)
    if (existing) {
      return new StepResponse<RenewalCollection, MadeCollection | null>({ collectionId: existing.id, captured: captured(order) }, null)
    }
    // .run(), not runAsStep: made only when the order has none, and undone only while nothing is captured; core's compensation would delete it regardless
    const { result } = await createOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId, amount } })
    return new StepResponse<RenewalCollection, MadeCollection | null>({ collectionId: result[0].id, captured: false }, { orderId, collectionId: result[0].id })
  },
  async (made, { container }) => {
    if (made && !(await capturedOn(container, made.orderId))) {
      await container.resolve(ContainerRegistrationKeys.LINK).dismiss({ [Modules.ORDER]: { order_id: made.orderId }, [Modules.PAYMENT]: { payment_collection_id: made.collectionId } })
      await container.resolve(Modules.PAYMENT).deletePaymentCollections([made.collectionId])
    }
  }
)
