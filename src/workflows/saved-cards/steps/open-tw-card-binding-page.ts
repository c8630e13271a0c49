import { MedusaError } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { UnknownOutcomeError } from "../../../lib/http"
import { toMedusaError } from "../../../providers/core/medusa-errors"
import { hostedApi } from "../../../providers/plugin-hosted-api"
import type { CardBindingTarget } from "./prepare-tw-card-binding"

export type BindingPage =
  | { opened: true; binding_id: string; expires_at: string; url: string }
  /** The page could not be opened: the card is recorded failed with `reason`, and the shopper gets `error`. */
  | { opened: false; reason: string; error: { type: string; message: string } }

/**
 * `POST /checkout-token`, once. The hosted API has no idempotency and no read
 * of a binding: a failure, or an unknown outcome, is answered as such (the
 * card is then recorded failed and the customer starts again), never
 * retried. Nothing to undo: a page that did get created is never shown, so it
 * binds nothing, and a notification for it finds no waiting card.
 */
export const openBindingPageStep = createStep(
  "open-tw-card-binding-page",
  async ({ target, saved_card_id }: { target: CardBindingTarget; saved_card_id: string }, { container }) => {
    try {
      const created = await hostedApi(container, target.provider_key).client.checkouts.createCardBinding({
        successUrl: target.back_url,
        failureUrl: target.back_url,
        customId: saved_card_id,
        // The page asks for the cardholder's email unless it is given.
        ...(target.email ? { payerEmail: target.email } : {}),
      })
      return new StepResponse<BindingPage>({ opened: true, binding_id: created.id, expires_at: created.page.expiresAt.toISOString(), url: created.page.url })
    } catch (error) {
      const unknown = error instanceof UnknownOutcomeError
      const answer = unknown
        ? new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "The payment service did not answer; nothing was bound. Please try again.")
        : toMedusaError("Opening the card binding page", error)
      return new StepResponse<BindingPage>({
        opened: false,
        reason: unknown ? "the payment service did not answer" : "the binding page could not be opened",
        error: { type: answer.type, message: answer.message },
      })
    }
  }
)
