import { createHook, createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { untrusted } from "../../lib/log"
import { BINDING_TIMED_OUT } from "../../modules/tw-saved-card/binding-state"
import { claimTokenNotificationStep } from "./steps/claim-tw-token-notification"
import { ensureAccountHolderStep } from "./steps/ensure-tw-account-holder"
import { markBindingFailedStep } from "./steps/mark-tw-card-binding-failed"
import { mirrorSavedCardsStep } from "./steps/mirror-tw-saved-cards"
import { storeCardTokenStep } from "./steps/store-tw-card-token"
import { type VerifiedToken, verifyTokenNotificationStep } from "./steps/verify-tw-token-notification"
import type { TokenDelivery } from "./decisions/token-notification"

export const bindTwCardWorkflowId = "bind-tw-card"

export interface BindTwCardInput {
  /** `hosted-checkout_<id>`: the provider whose address received the notification. */
  provider_key: string
  delivery: TokenDelivery
  /** The card token of a successful binding; only `store-tw-card-token` reads it, to encrypt it. */
  token: string | null
}

/** What the merchant's `savedCardAdded` hook gets: facts a shopper may see, never the token, its ciphertext or a key. */
export interface SavedCardAdded {
  customer_id: string
  saved_card_id: string
  provider_id: string
  last4: string | null
  card_label: string | null
}

type Matched = Extract<VerifiedToken, { action: "bind" | "fail" }>
const matched = (verified: VerifiedToken): Matched | null => (verified.action === "bind" || verified.action === "fail" ? verified : null)

/**
 * A `token` notification, the only delivery of a card token (docs/saved-cards.md):
 * verified against a binding this store started, claimed once, then the token
 * encrypted into the card's row (the card becomes active) or the binding's
 * failure recorded, and the customer's account holder brought in line. A
 * binding past its time is failed for good instead. Hook `savedCardAdded`
 * after a card was bound. A step that fails undoes the others (the card waits
 * for its token again, the claim is given back, the holder as it was), so
 * the intake answers 500 and the service's resend is taken.
 *
 * Its input holds the token, so it is never stored: no `retentionTime`, not
 * `idempotent`, no async step (a stored run would write its input to
 * `workflow_execution`). The claim makes it run once per notification.
 */
export const bindTwCardWorkflow = createWorkflow(bindTwCardWorkflowId, (input: BindTwCardInput) => {
  const verified = verifyTokenNotificationStep(transform({ input }, ({ input }) => ({ provider_key: input.provider_key, delivery: input.delivery })))

  when("tw-expire-card-binding", { verified }, ({ verified }) => verified.action === "expire").then(() => {
    markBindingFailedStep(
      transform({ verified }, ({ verified }) => ({ card_id: verified.action === "expire" ? verified.card_id : "", failure_reason: BINDING_TIMED_OUT }))
    ).config({ name: "expire-tw-card-binding" })
  })

  const claimed = when("tw-claim-token-notification", { verified }, ({ verified }) => !!matched(verified)).then(() =>
    claimTokenNotificationStep(transform({ input, verified }, ({ input, verified }) => ({ provider_key: input.provider_key, binding_id: input.delivery.binding_id, card_id: matched(verified)!.card_id })))
  )

  const stored = when("tw-store-card-token", { verified, claimed }, ({ verified, claimed }) => verified.action === "bind" && !!claimed).then(() =>
    storeCardTokenStep(
      transform({ input, verified }, ({ input, verified }) => ({ provider_key: input.provider_key, card_id: matched(verified)!.card_id, token: input.token ?? "", last4: input.delivery.last4 }))
    )
  )
  when("tw-fail-card-binding", { verified, claimed }, ({ verified, claimed }) => verified.action === "fail" && !!claimed).then(() => {
    markBindingFailedStep(
      transform({ input, verified }, ({ input, verified }) => {
        const card = matched(verified)!
        const reason = input.delivery.failure_reason
        return { card_id: card.card_id, failure_reason: reason, last4: input.delivery.last4, log: { provider_key: input.provider_key, message: `card ${card.card_id} not bound: ${untrusted(reason, 120)}` } }
      })
    )
  })

  when("tw-mirror-bound-card", { verified, claimed }, ({ verified, claimed }) => !!matched(verified) && !!claimed).then(() => {
    const holderOf = transform({ verified }, ({ verified }) => ({ customer_id: matched(verified)!.customer_id, provider_id: matched(verified)!.provider_id }))
    ensureAccountHolderStep(holderOf)
    mirrorSavedCardsStep(holderOf)
  })

  const added = when("tw-saved-card-added", { stored }, ({ stored }) => !!stored).then(() => {
    const payload = transform({ verified, stored }, ({ verified, stored }): SavedCardAdded => {
      const card = matched(verified)!
      return { customer_id: card.customer_id, saved_card_id: card.card_id, provider_id: card.provider_id, last4: stored?.last4 ?? null, card_label: stored?.card_label ?? null }
    })
    const savedCardAdded = createHook("savedCardAdded", payload)
    const hooks: [typeof savedCardAdded] = [savedCardAdded]
    return { hooks, result: payload }
  })

  const change = transform({ verified, claimed }, ({ verified, claimed }) => {
    const card = matched(verified)
    return card && claimed ? { card_id: card.card_id, customer_id: card.customer_id, status: card.action === "bind" ? ("active" as const) : ("failed" as const) } : null
  })
  return new WorkflowResponse({ change }, { hooks: added.hooks })
})
