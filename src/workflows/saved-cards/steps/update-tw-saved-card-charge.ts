import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../../lib/log"
import type { ChargeChange } from "../decisions/charge-decision"
import { savedCardModule } from "../../../saved-cards/charge-rows"

export interface ChargeRowUpdate {
  id: string
  change: ChargeChange | null
  /** An error for the merchant's log, written with the change (something to check at the service by hand). */
  alert?: string | null
}

type Previous = { id: string } & Required<ChargeChange>

/**
 * Writes what a decision said onto a charge row. Messages are the clients'
 * redacted ones, cut so a row cannot grow without bound. Undone: the row's
 * previous status, transaction, code and message. Used under several names
 * (`.config({ name })`), one per moment of a charge.
 */
export const updateChargeRowStep = createStep(
  "update-tw-saved-card-charge",
  async ({ id, change, alert }: ChargeRowUpdate, { container }) => {
    if (alert) {
      container.resolve(ContainerRegistrationKeys.LOGGER).error(`medusa-payment-tw: ${alert}`)
    }
    if (!change) {
      return new StepResponse<string, Previous | null>(id, null)
    }
    const module = savedCardModule(container)
    const before = await module.retrieveTwSavedCardCharge(id, { select: ["id", "status", "transaction_id", "code", "message"] })
    const message = change.message === undefined || change.message === null ? change.message : untrusted(change.message, 300)
    await module.updateTwSavedCardCharges({ id, ...change, ...(message === undefined ? {} : { message }) })
    const previous: Previous = { id, status: before.status, transaction_id: before.transaction_id ?? null, code: before.code ?? null, message: before.message ?? null }
    return new StepResponse<string, Previous | null>(id, previous)
  },
  async (previous, { container }) => {
    if (previous) {
      await savedCardModule(container).updateTwSavedCardCharges(previous)
    }
  }
)
