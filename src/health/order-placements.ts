import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { countPayment, recordPaymentToOrder } from "../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../modules/tw-payment-sweep"
import { providerId } from "../providers/core/provider-keys"
import { pluginProviders } from "../providers/plugin-providers"
import type { PlacementPath } from "../shared/health-views"

export interface OrderPlacement {
  orderId: string
  path: PlacementPath
  /** The step that placed the order knows its path: it replaces a path the completion's hook wrote first. */
  override: boolean
  /** When the payment was made, as the pipeline's read tells it; else the session's recorded `paidAt`. */
  paidAt?: string
}

interface OrderSessions {
  id: string
  created_at: string | Date
  payment_collections?: Array<{ payment_sessions?: Array<{ provider_id: string; status: string; data?: Record<string, unknown> | null } | null> | null } | null> | null
}

const sweep = (container: MedusaContainer) => container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)

/**
 * Keeps how an order of a plugin payment was placed and how long after its payment (`tw_order_placement`),
 * and counts it in the metrics once; answers whether the row is new. An order of another provider is left alone.
 * Written by the pipeline's step (`record-tw-order-placement`) and by the hook on core's cart completion.
 */
export async function recordOrderPlacement(container: MedusaContainer, { orderId, path, override, paidAt }: OrderPlacement): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "created_at", "payment_collections.payment_sessions.provider_id", "payment_collections.payment_sessions.status", "payment_collections.payment_sessions.data"],
    filters: { id: orderId },
  })
  const order = data[0] as OrderSessions | undefined
  const keys = new Map(pluginProviders(container).map((provider) => [providerId(provider.key), provider.key]))
  const session = order?.payment_collections?.flatMap((collection) => collection?.payment_sessions ?? []).find((s) => s && keys.has(s.provider_id))
  if (!order || !session) {
    return false
  }
  const awaiting = session.status === "pending_authorization"
  const paid = paidAt ?? (typeof session.data?.paidAt === "string" ? session.data.paidAt : undefined)
  const placedAt = new Date(order.created_at)
  const providerKey = keys.get(session.provider_id)!
  const inserted = await sweep(container).recordOrderPlacement(
    { order_id: orderId, provider_key: providerKey, path, awaiting, paid_at: paid ? new Date(paid) : null, placed_at: placedAt },
    override
  )
  if (inserted) {
    countPayment(providerKey, awaiting ? "awaiting" : "captured")
    if (paid && !awaiting) {
      recordPaymentToOrder(path, Math.max(0, (placedAt.getTime() - new Date(paid).getTime()) / 1000))
    }
  }
  return inserted
}

/** Removes an order's placement row (a placement undone with the run that recorded it). */
export async function forgetOrderPlacement(container: MedusaContainer, orderId: string): Promise<void> {
  const rows = await sweep(container).listTwOrderPlacements({ order_id: orderId }, { select: ["id"] })
  await sweep(container).deleteTwOrderPlacements(rows.map((row) => row.id))
}
