import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { SHOPPER_ERROR } from "../providers/core/shopper-error-codes"

/**
 * Before a payment session is created through the store API: core's workflow
 * first deletes the collection's other sessions, and deleting a paid session
 * of this plugin returns its money (`deletePayment`), even when that money is
 * already a payment of the cart's order. So a collection that holds a live
 * payment takes no new session: the cart is paid.
 */
export async function paidCollectionGuard(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  try {
    const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({ entity: "payment_collection", fields: ["id", "payments.id", "payments.canceled_at"], filters: { id: req.params.id } })
    const payments = (data[0]?.payments ?? []) as Array<{ canceled_at: Date | string | null } | null>
    if (payments.some((payment) => payment && !payment.canceled_at)) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This cart is already paid; no new payment can be started for it.", SHOPPER_ERROR.cart_already_paid)
    }
  } catch (error) {
    return next(error)
  }
  next()
}
