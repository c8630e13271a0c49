import { MedusaError, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { placedOrder } from "../../payments/steps/complete-tw-paid-cart"

/**
 * A checkout not yet paid cannot be cancelled at the service (`V0002`) and
 * its page stays payable: the store drops the checkout's payment session, so
 * the cart cannot be completed with it and a page paid later is an orphan
 * (refunded; the subscription it started is cancelled by the next sync).
 * Under the cart's lock, so no completion is half-way; a first order placed
 * meanwhile means the subscription has started after all.
 */
export const releaseCheckoutStep = createStep(
  "release-tw-subscription-checkout",
  async ({ id, cart_id, payment_session_id }: { id: string; cart_id: string; payment_session_id: string | null }, { container }) => {
    if (!payment_session_id) {
      return new StepResponse(undefined)
    }
    await container.resolve(Modules.LOCKING).execute(
      cart_id,
      async () => {
        if (await placedOrder(container, cart_id)) {
          throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Subscription ${id} has just started (its first order was placed); nothing was changed. Try again in a minute.`)
        }
        const payments = container.resolve(Modules.PAYMENT)
        const [session] = await payments.listPaymentSessions({ id: payment_session_id }, { select: ["id"] })
        if (session) {
          await payments.deletePaymentSession(payment_session_id)
        }
      },
      { timeout: 30 }
    )
    return new StepResponse(undefined)
  }
)
