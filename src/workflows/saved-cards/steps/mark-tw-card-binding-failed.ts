import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { savedCardModule } from "../../../saved-cards/charge-rows"

export interface BindingFailure {
  card_id: string
  failure_reason: string
  /** Four digits a failed binding's notification gave; left as it is when not given. */
  last4?: string | null
  /** A line for the merchant's log, prefixed with the provider's key (anything untrusted in it already escaped). */
  log?: { provider_key: string; message: string } | null
}

/**
 * A binding that did not succeed: the card is `failed`, with the reason the
 * customer reads. Used under several names (`.config({ name })`): the page
 * that could not be opened, the notification of a refused card, a binding
 * past its time. Undone: the status, reason and last four digits it had.
 */
export const markBindingFailedStep = createStep(
  "mark-tw-card-binding-failed",
  async ({ card_id, failure_reason, last4, log }: BindingFailure, { container }) => {
    const module = savedCardModule(container)
    const before = await module.retrieveTwSavedCard(card_id, { select: ["id", "status", "failure_reason", "last4"] })
    await module.updateTwSavedCards({ id: card_id, status: "failed", failure_reason, ...(last4 === undefined ? {} : { last4 }) })
    if (log) {
      container.resolve(ContainerRegistrationKeys.LOGGER).info(`${log.provider_key}: ${log.message}`)
    }
    return new StepResponse(card_id, { id: card_id, status: before.status, failure_reason: before.failure_reason ?? null, last4: before.last4 ?? null })
  },
  async (previous, { container }) => {
    if (previous) {
      await savedCardModule(container).updateTwSavedCards(previous)
    }
  }
)
