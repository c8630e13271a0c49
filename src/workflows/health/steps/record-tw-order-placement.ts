import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { countPayment, recordPaymentToOrder } from "../../../lib/metrics/payment-metrics"
import { TW_PAYMENT_SWEEP_MODULE, type TwPaymentSweepModuleService } from "../../../modules/tw-payment-sweep"
import { providerId } from "../../../providers/core/provider-keys"
import { pluginProviders } from "../../../providers/plugin-providers"
import type { PlacementPath } from "../../../shared/health-views"

export interface RecordOrderPlacementInput {
  orderId: string
  path: PlacementPath
  /** The step that placed the order knows its path: it replaces a path an `order.placed` reader wrote first. */
  override: boolean
  /** When the payment was made, as the pipeline's read tells it; else the session's recorded `paidAt`. */
  paidAt?: string
}

interface OrderSessions {
  id: string
  created_at: string | Date
  payment_collections?: Array<{ payment_sessions?: Array<{ provider_id: string; status: string; data?: Record<string, unknown> | null } | null> | null } | null> | null
}

/**
 * Keeps how an order of a plugin payment was placed and how long after its payment (`tw_order_placement`),
 * and counts it in the metrics once. An order of another provider is left alone. Undone (the row removed)
 * when it was new and a later step fails.
 */
export const recordOrderPlacementStep = createStep(
  "record-tw-order-placement",
  async ({ orderId, path, override, paidAt }: RecordOrderPlacementInput, { container }) => {
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
      return new StepResponse<boolean, string | null>(false, null)
    }
    const awaiting = session.status === "pending_authorization"
    const paid = paidAt ?? (typeof session.data?.paidAt === "string" ? session.data.paidAt : undefined)
    const placedAt = new Date(order.created_at)
    const providerKey = keys.get(session.provider_id)!
    const inserted = await container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE).recordOrderPlacement(
      { order_id: orderId, provider_key: providerKey, path, awaiting, paid_at: paid ? new Date(paid) : null, placed_at: placedAt },
      override
    )
    if (inserted) {
      countPayment(providerKey, awaiting ? "awaiting" : "captured")
      if (paid && !awaiting) {
        recordPaymentToOrder(path, Math.max(0, (placedAt.getTime() - new Date(paid).getTime()) / 1000))
      }
    }
    return new StepResponse<boolean, string | null>(inserted, inserted ? orderId : null)
  },
  async (orderId, { container }) => {
    if (orderId) {
      const sweep = container.resolve<TwPaymentSweepModuleService>(TW_PAYMENT_SWEEP_MODULE)
      const rows = await sweep.listTwOrderPlacements({ order_id: orderId }, { select: ["id"] })
      await sweep.deleteTwOrderPlacements(rows.map((row) => row.id))
    }
  }
)
