import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, PaymentActions } from "@medusajs/framework/utils"
import { SHOPPER_ERROR } from "../providers/core/shopper-error-codes"
import { pluginProvider } from "../providers/plugin-providers"

interface CollectionRow {
  payments?: Array<{ canceled_at: Date | string | null } | null>
  payment_sessions?: Array<{ id: string; provider_id: string; status: string; data: Record<string, unknown> | null } | null>
  cart?: { completed_at: Date | string | null } | null
}

/** Session statuses in which the shopper's money is paid or on its way (a code issued, an intent processing). */
const HELD = new Set(["pending_authorization", "authorized", "captured"])

/**
 * Before a payment session is created through the store API. Core's workflow
 * deletes the collection's other sessions, and a deleted session's code is
 * void and its money orphaned. So a collection takes no new session once it
 * is in use: it holds a live payment, its cart became an order, or one of its
 * sessions holds money paid or on its way, as recorded or as the service says
 * now (a page paid a moment ago, its notification still on its way). Refused
 * before anything is created at the service. The providers' `deletePayment`
 * refuses the same for every other path that deletes a session.
 */
export async function collectionInUseGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const refusal = await whyInUse(req.scope, req.params.id)
    if (refusal) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal.message, refusal.code)
    }
  } catch (error) {
    return next(error)
  }
  next()
}

async function whyInUse(container: MedusaContainer, collectionId: string): Promise<{ code: string; message: string } | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: [
      "id",
      "payments.canceled_at",
      "payment_sessions.id",
      "payment_sessions.provider_id",
      "payment_sessions.status",
      "payment_sessions.data",
      "cart.completed_at",
    ],
    filters: { id: collectionId },
  })
  const row = data[0] as CollectionRow | undefined
  if (!row) {
    return undefined
  }
  if ((row.payments ?? []).some((payment) => payment && !payment.canceled_at)) {
    return { code: SHOPPER_ERROR.cart_already_paid, message: "This cart is already paid; no new payment can be started for it." }
  }
  if (row.cart?.completed_at) {
    return { code: SHOPPER_ERROR.cart_already_completed, message: "This cart is already an order; its payment cannot be replaced." }
  }
  for (const session of row.payment_sessions ?? []) {
    if (session && (HELD.has(session.status) || (await heldAtService(container, session)))) {
      return {
        code: SHOPPER_ERROR.payment_pending,
        message: "A payment of this cart is under way (paid, or a payment code was issued); no new payment can be started until it is settled or expires.",
      }
    }
  }
  return undefined
}

/** Whether the service holds this plugin's session paid or awaiting its money, on a fresh read. */
async function heldAtService(container: MedusaContainer, session: { provider_id: string; data: Record<string, unknown> | null }): Promise<boolean> {
  const provider = pluginProvider(container, session.provider_id.replace(/^pp_/, ""))
  const serviceId = provider && session.data?.[provider.api.idField]
  if (!provider || typeof serviceId !== "string") {
    return false
  }
  const observation = await provider.api.observe(serviceId)
  return !!observation && !observation.returned && (observation.paid || observation.action === PaymentActions.PENDING_AUTHORIZATION)
}
