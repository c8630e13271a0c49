import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { ChargeFacts } from "../decisions/charge-decision"
import { chargeFacts, savedCardModule } from "../../../saved-cards/charge-rows"

export interface ChargeClaim {
  row: ChargeFacts
  /** This run wrote the row, so it sends; otherwise an earlier or parallel completion holds the charge. */
  created: boolean
}

/**
 * The database guard of "one charge per session": the row, unique per payment
 * session, is written before the token is even decrypted. Whoever inserts it
 * sends; anyone else finds it and goes by its status. Undone only while it
 * still says `charging`: nothing was sent (a send that was made has left its
 * mark on the row by then, see send-tw-saved-card-charge.ts), so the session can
 * be charged by a later completion.
 */
export const claimSavedCardChargeStep = createStep(
  "claim-tw-saved-card-charge",
  async ({ session_id, card_id, amount }: { session_id: string; card_id: string; amount: number }, { container }) => {
    const module = savedCardModule(container)
    try {
      const row = await module.createTwSavedCardCharges({ payment_session_id: session_id, saved_card_id: card_id, service_order_id: session_id, amount, status: "charging" })
      return new StepResponse<ChargeClaim, string | null>({ row: chargeFacts(row), created: true }, row.id)
    } catch (error) {
      const [existing] = await module.listTwSavedCardCharges({ payment_session_id: session_id }, { take: 1 })
      if (!existing) {
        throw error
      }
      // Not this run's row: nothing of it to undo.
      return new StepResponse<ChargeClaim, string | null>({ row: chargeFacts(existing), created: false }, null)
    }
  },
  async (rowId, { container }) => {
    if (!rowId) {
      return
    }
    const module = savedCardModule(container)
    const [row] = await module.listTwSavedCardCharges({ id: rowId, status: "charging" }, { take: 1, select: ["id"] })
    if (row) {
      await module.deleteTwSavedCardCharges(row.id)
    }
  }
)
