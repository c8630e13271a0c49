import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { DeclinedError, PaymentServiceError, UnexpectedResponseError, UnknownOutcomeError } from "../../../lib/http"
import { untrusted } from "../../../lib/log"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import { type ChargeChange, changeAfterUndoneSend, type ChargeFacts, type SendResult, sentSomething } from "../decisions/charge-decision"
import { savedCardModule } from "../../../saved-cards/charge-rows"
import type { PreparedCharge } from "./prepare-tw-saved-card-charge"

type Charge = Extract<PreparedCharge, { kind: "charge" }>

/**
 * The one send: `POST /token/transactions` (or `/token/subscriptions`). The
 * token is decrypted here and goes only into the request; it is never a
 * step's input, output or log. Every answer is returned, none thrown: after a
 * time-out, a 5xx or `C026` nothing is sent again (a read settles it). A card
 * that cannot be used (deleted meanwhile, its key gone) sends nothing; the
 * cause (a key id, advice on tokenKeys) is the merchant's to read, never the
 * shopper's. Undone: what was sent cannot be taken back, so the row keeps
 * what the service said, or `unknown`, and the reconciliation reads it.
 */
export const sendSavedCardChargeStep = createStep(
  "send-tw-saved-card-charge",
  async ({ charge, row }: { charge: Charge; row: ChargeFacts }, { container }) => {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    const { card, session_id: sessionId } = charge
    const done = (sent: SendResult) => {
      // Nothing sent: nothing to keep (the row's own step deletes it).
      const undo = sentSomething(sent) ? { id: row.id, change: changeAfterUndoneSend(card, row, sent) } : null
      return new StepResponse<SendResult, { id: string; change: ChargeChange } | null>(sent, undo)
    }
    let token: string
    try {
      token = await savedCardModule(container).revealToken(card.id, charge.customer_id)
    } catch (error) {
      const cause = (error as Error).message
      logger.error(`medusa-payment-tw: saved card ${card.id} cannot be charged for session ${sessionId}: ${untrusted(cause, 300)}`)
      return done({ kind: "unavailable", cause })
    }
    const api = hostedApi(container, charge.provider_key)
    try {
      if (charge.request.kind === "subscription") {
        const answer = await api.client.tokenSubscriptions.create({ ...charge.request.body, token })
        const later = charge.subscription?.first_charge_later ? charge.subscription.start_date : null
        logger.info(
          later
            ? `medusa-payment-tw: saved card ${card.id} scheduled subscription ${answer.subscriptionId} for session ${sessionId}`
            : `medusa-payment-tw: saved card ${card.id} subscribed (${answer.subscriptionId}) for session ${sessionId}`
        )
        return done({ kind: "subscribed", subscription_id: answer.subscriptionId, first_charge_on: later })
      }
      const answer = await api.client.tokenCharges.create({ ...charge.request.body, token })
      logger.info(`medusa-payment-tw: saved card ${card.id} charged ${charge.amount} TWD (${answer.id}) for session ${sessionId}`)
      return done({ kind: "charged", transaction_hid: answer.id })
    } catch (error) {
      const code = (error as { code?: string }).code ?? "ERROR"
      const cause = (error as Error).message
      if (error instanceof DeclinedError) {
        logger.info(`medusa-payment-tw: saved card ${card.id} declined (${error.code}) for session ${sessionId}`)
        return done({ kind: "declined", code: error.code, cause })
      }
      if (error instanceof UnknownOutcomeError) {
        logger.warn(`medusa-payment-tw: the charge of saved card ${card.id} for session ${sessionId} has an unknown outcome (${error.code}); reading it, never resending`)
        return done({ kind: "unknown", code: error.code, cause })
      }
      if (error instanceof PaymentServiceError && !(error instanceof UnexpectedResponseError)) {
        // Refused before charging (a parameter, the store's credentials, risk control): nothing was charged.
        logger.error(`medusa-payment-tw: the service refused the charge of saved card ${card.id} for session ${sessionId} (${code}): ${untrusted(cause, 300)}`)
        return done({ kind: "refused", code, cause })
      }
      // Anything else may have come after the charge: its outcome is open until a read settles it.
      logger.error(`medusa-payment-tw: the charge of saved card ${card.id} for session ${sessionId} failed unexpectedly; reading it, never resending: ${untrusted(cause, 300)}`)
      return done({ kind: "failed", code, cause })
    }
  },
  async (undo, { container }) => {
    if (!undo) {
      return
    }
    const module = savedCardModule(container)
    const [row] = await module.listTwSavedCardCharges({ id: undo.id, status: "charging" }, { take: 1, select: ["id"] })
    if (row) {
      await module.updateTwSavedCardCharges({ id: row.id, ...undo.change, ...(undo.change.message ? { message: untrusted(undo.change.message, 300) } : {}) })
    }
  }
)
