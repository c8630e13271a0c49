import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

/**
 * What a run about a session locks: the session's cart, whose lock core's
 * completion holds for its whole run, or the session itself when it has no
 * cart; for a session that is gone, the cart the service names (a hosted
 * page's order), whose order the run may record the payment on. Null when the
 * read names no session of this store.
 */
export const findSessionLockKeyStep = createStep("find-tw-session-lock-key", async ({ sessionId, cartId }: { sessionId: string | null; cartId: string | null }, { container }) => {
  if (!sessionId?.startsWith("payses_")) {
    return new StepResponse(null)
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["payment_collection_id"], filters: { id: sessionId } })
  if (!sessions[0]) {
    return new StepResponse(cartId)
  }
  const { data: carts } = await query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: sessions[0].payment_collection_id } })
  return new StepResponse((carts[0]?.cart_id as string | undefined) ?? sessionId)
})
