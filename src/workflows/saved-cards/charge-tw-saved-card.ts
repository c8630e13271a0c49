import { createWorkflow, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { SAVED_CARD_CHARGE_WORKFLOW_ID } from "../../providers/hosted-checkout/public"
import { type ChargeOutcome, planAfterSend, planExisting, settleFromRead } from "./decisions/charge-decision"
import { savedCardChargeLockKey } from "../../saved-cards/charge-rows"
import { claimSavedCardChargeStep } from "./steps/claim-tw-saved-card-charge"
import { type ChargeTwSavedCardInput, type PreparedCharge, prepareSavedCardChargeStep } from "./steps/prepare-tw-saved-card-charge"
import { readSavedCardChargeStep } from "./steps/read-tw-saved-card-charge"
import { recordChargeInSessionStep } from "./steps/record-tw-saved-card-charge-in-session"
import { recordSubscriptionNumberStep } from "./steps/record-tw-saved-card-subscription-number"
import { sendSavedCardChargeStep } from "./steps/send-tw-saved-card-charge"
import { updateChargeRowStep } from "./steps/update-tw-saved-card-charge"

export type { ChargeTwSavedCardInput } from "./steps/prepare-tw-saved-card-charge"
/** The id the hosted provider runs it by, for an off-session session's authorization. */
export const chargeTwSavedCardWorkflowId = SAVED_CARD_CHARGE_WORKFLOW_ID

type Charge = Extract<PreparedCharge, { kind: "charge" }>
const chargeOf = (prepared: PreparedCharge): Charge | null => (prepared.kind === "charge" ? prepared : null)

/**
 * The charge of a saved-card payment session, made once (docs/saved-cards.md),
 * run by the store middleware before core's cart completion, and by the
 * hosted provider's authorization of an off-session session (Medusa's recipe:
 * a subscription tool's renewal, with no completion; `off_session`, no cart lock):
 * under the cart's lock (as core's completion takes it) and the charge's own
 * (the reconciliation's settling takes turns on it), the session is checked
 * (its customer's, this cart's customer's, its amount), the charge row is
 * written (unique per session: a second completion finds it and goes by its
 * status, it never sends), the token is sent once, what the service answered
 * is recorded, and a charge whose answer names only its P number, or whose
 * outcome is unknown, is read by its `orderId`: paid → written into the
 * session with a sealed read, so core's authorization takes it; failed → a
 * decline; nothing shown → still unknown, the reconciliation reads it again.
 * A step that fails undoes what came before it: a row of a charge never sent
 * is deleted, a sent one stays on record (never resent, read later).
 * Not stored and not idempotent by transaction id: a second completion of the
 * session must read again, and the row is the guard.
 */
export const chargeTwSavedCardWorkflow = createWorkflow(chargeTwSavedCardWorkflowId, (input: ChargeTwSavedCardInput) => {
  // Two locks, two steps: a lock step over several keys keeps the first when the second is busy.
  // No cart lock off session: an authorization inside core's completion holds it already.
  when("tw-lock-saved-card-cart", { input }, ({ input }) => !!input.cart_id && !input.off_session).then(() => {
    acquireLockStep({ key: input.cart_id!, timeout: 60, ttl: 120 })
  })
  const chargeLock = transform({ input }, ({ input }) => savedCardChargeLockKey(input.payment_session_id))
  acquireLockStep({ key: chargeLock, timeout: 60, ttl: 120 }).config({ name: "acquire-tw-saved-card-charge-lock" })
  const prepared = prepareSavedCardChargeStep(input)

  const claim = when("tw-claim-saved-card-charge", { prepared }, ({ prepared }) => prepared.kind === "charge").then(() =>
    claimSavedCardChargeStep(
      transform({ prepared }, ({ prepared }) => {
        const charge = chargeOf(prepared)!
        return { session_id: charge.session_id, card_id: charge.card.id, amount: charge.amount }
      })
    )
  )
  const sent = when("tw-send-saved-card-charge", { claim }, ({ claim }) => !!claim?.created).then(() =>
    sendSavedCardChargeStep(transform({ prepared, claim }, ({ prepared, claim }) => ({ charge: chargeOf(prepared)!, row: claim!.row })))
  )
  const plan = transform({ prepared, claim, sent }, ({ prepared, claim, sent }) => {
    const charge = chargeOf(prepared)
    if (!charge || !claim) {
      return null
    }
    return sent ? planAfterSend(charge.card, claim.row, sent) : planExisting(charge.card, claim.row, charge.now)
  })

  when("tw-record-saved-card-subscription-number", { prepared, sent }, ({ prepared, sent }) => sent?.kind === "subscribed" && !!chargeOf(prepared)?.subscription).then(() => {
    recordSubscriptionNumberStep(
      transform({ prepared, sent }, ({ prepared, sent }) => ({ subscription_id: chargeOf(prepared)!.subscription!.id, hid: sent?.kind === "subscribed" ? sent.subscription_id : "" }))
    )
  })
  when("tw-record-saved-card-schedule", { sent }, ({ sent }) => sent?.kind === "subscribed" && sent.first_charge_on !== null).then(() => {
    recordChargeInSessionStep(
      transform({ prepared, sent }, ({ prepared, sent }) => {
        const charge = chargeOf(prepared)!
        return { session_id: charge.session_id, provider_key: charge.provider_key, record: { kind: "schedule" as const, hid: sent?.kind === "subscribed" ? sent.subscription_id : "" } }
      })
    ).config({ name: "record-tw-saved-card-schedule-in-session" })
  })
  when("tw-record-saved-card-charge-sent", { plan }, ({ plan }) => !!plan?.change).then(() => {
    updateChargeRowStep(transform({ claim, plan }, ({ claim, plan }) => ({ id: claim!.row.id, change: plan!.change }))).config({ name: "record-tw-saved-card-charge-sent" })
  })

  const read = when("tw-read-saved-card-charge", { plan }, ({ plan }) => !!plan?.read).then(() =>
    readSavedCardChargeStep(transform({ prepared, plan }, ({ prepared, plan }) => ({ provider_key: chargeOf(prepared)!.provider_key, row: plan!.read!.row })))
  )
  const settlement = transform({ prepared, plan, read }, ({ prepared, plan, read }) => {
    const charge = chargeOf(prepared)
    if (!charge || !plan?.read || !read) {
      return null
    }
    return settleFromRead(charge.card, plan.read.row, read, { schedule: !!charge.subscription?.first_charge_later, hid: plan.read.hid, now: charge.now })
  })
  when("tw-record-saved-card-charge-in-session", { settlement }, ({ settlement }) => !!settlement?.charge).then(() => {
    recordChargeInSessionStep(
      transform({ prepared, settlement }, ({ prepared, settlement }) => {
        const charge = chargeOf(prepared)!
        return { session_id: charge.session_id, provider_key: charge.provider_key, record: { kind: "charge" as const, ...settlement!.charge! } }
      })
    )
  })
  when("tw-record-saved-card-charge-read", { settlement }, ({ settlement }) => !!settlement?.change || !!settlement?.alert).then(() => {
    updateChargeRowStep(transform({ claim, settlement }, ({ claim, settlement }) => ({ id: claim!.row.id, change: settlement!.change, alert: settlement!.alert }))).config({
      name: "record-tw-saved-card-charge-read",
    })
  })
  releaseLockStep({ key: chargeLock }).config({ name: "release-tw-saved-card-charge-lock" })
  when("tw-unlock-saved-card-cart", { input }, ({ input }) => !!input.cart_id && !input.off_session).then(() => {
    releaseLockStep({ key: input.cart_id! })
  })

  const outcome = transform({ prepared, plan, settlement }, ({ prepared, plan, settlement }): ChargeOutcome => {
    if (prepared.kind === "paid") {
      return { status: "paid" }
    }
    return settlement?.outcome ?? plan!.outcome!
  })
  return new WorkflowResponse({ outcome })
})
