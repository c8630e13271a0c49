import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../../lib/log"
import { processTwPaymentWorkflow } from "../../payments/process-tw-payment"
import { CHARGE_CODES } from "../decisions/charge-decision"
import { savedCardModule } from "../../../saved-cards/charge-rows"

/**
 * A settled paid charge goes through the payment pipeline like a
 * notification's read: the cart is completed into one captured order, or,
 * when the session or the cart has moved on, the money is refunded as an
 * orphan (the row then keeps `code: "REFUNDED"`). Run as a workflow of its
 * own, not a sub-workflow, so its locks are taken. Last, and never undone:
 * what the pipeline did is final. A failure here is logged and leaves the
 * settled charge as it is: the session holds the sealed charge, so the
 * reconciliation's walk of open sessions runs the pipeline again.
 */
export const placeChargeOrderStep = createStep(
  "place-tw-saved-card-charge-order",
  async ({ charge_id, session_id, provider_key, service_id }: { charge_id: string; session_id: string; provider_key: string; service_id: string }, { container }) => {
    try {
      // .run(), not runAsStep: the pipeline takes its cart lock (a sub-workflow skips it), what it did is final, and its failure is logged for the reconciliation, not thrown
      const { result } = await processTwPaymentWorkflow(container).run({ input: { provider: provider_key, serviceId: service_id } })
      if (result.decision.kind === "refund-orphan") {
        await savedCardModule(container).updateTwSavedCardCharges({ id: charge_id, code: CHARGE_CODES.refunded, message: untrusted(result.decision.why, 300) })
      }
      return new StepResponse(result.decision.kind)
    } catch (error) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`medusa-payment-tw: settling the charge of session ${session_id} failed: ${untrusted((error as Error).message, 300)}`)
      return new StepResponse("failed")
    }
  }
)
